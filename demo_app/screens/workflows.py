"""Workflows & outbox: the user's progress in each workflow (stage, goals, values, history),
and the actions agents proposed, to approve or reject, with what they delivered.

The account's administrator can also pick one of the account's channel identities (an email
or IM sender, who has no dashboard) to follow its progress and approve its actions."""

from __future__ import annotations

from typing import Any

import streamlit as st

from demo_app import ui_session as session
from demo_app.channels_client import ChannelsClient
from demo_app.views import ClientError, time_text
from demo_app.workflows_client import WorkflowsClient

MINE = "My own"
WHOSE_KEY = "wf-whose"
STATUS_WORDS = {
    "awaitingApproval": "waiting for approval",
    "approved": "approved, about to run",
    "executing": "running",
    "done": "delivered",
    "rejected": "rejected",
}


def _identities() -> dict[str, str]:
    """``{label: identity id}`` of the account's channel identities; empty unless the user is
    the account's administrator."""
    try:
        groups = ChannelsClient(session.client(), session.user_key()).contacts()
    except ClientError:
        return {}
    return {
        f"{i['channel']}: {i['sender']}"
        + (f" ({group['contact']})" if group["contact"] != i["sender"] else ""): i["identity"]
        for group in groups
        for i in group["identities"]
        if i["channel"] != "web"
    }


def _client() -> WorkflowsClient:
    return WorkflowsClient(session.client(), st.session_state.get(WHOSE_KEY))


def _act(action: str, *args: Any) -> None:
    """Button callbacks: the outcome is shown on the next run."""
    client, user = _client(), session.user_key()
    try:
        if action == "submit":
            workflow, title, names = args
            values = {
                n: str(st.session_state.get(f"wf:{workflow}:{n}") or "").strip() for n in names
            }
            given = {n: v for n, v in values.items() if v}
            if not given:
                raise ClientError("Nothing to save: every field is empty.")
            try:
                client.submit(user, workflow, given)
            except ClientError as exc:
                # The account saves all the values or none: say so, with its reason.
                raise ClientError(f"Nothing was saved for {title}: {exc}") from exc
            empty = [n for n, v in values.items() if not v]
            message = f"Saved {_listed(list(given))} for {title}." + (
                f" Still empty: {_listed(empty)}." if empty else ""
            )
        elif action == "advance":
            progress = client.advance(user, args[0])
            message = (
                f"{args[0]} is complete."
                if progress["completed"]
                else f"Moved to stage '{progress['stage']}'."
            )
        elif action == "propose":
            payload = {
                "to": st.session_state.get("outbox:to", ""),
                "subject": st.session_state.get("outbox:subject", ""),
                "body": st.session_state.get("outbox:body", ""),
            }
            client.propose(user, "email", payload)
            message = f"Proposed the email “{payload['subject']}”: it waits for your approval."
        elif action == "approve":
            action_id, what = args
            done = client.approve(user, action_id)
            message = f"Approved {what}: {STATUS_WORDS.get(done['status'], done['status'])}."
        else:
            action_id, what = args
            client.reject(user, action_id)
            message = f"Rejected {what}."
        st.session_state["workflows_notice"] = message
    except ClientError as exc:
        st.session_state["workflows_error"] = str(exc)


def _listed(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _workflow(progress: dict[str, Any], editable: bool) -> None:
    name = progress["workflow"]
    with st.container(border=True):
        state = "complete" if progress["completed"] else f"stage **{progress['stageTitle']}**"
        title = progress.get("title") or name
        st.markdown(f"### {title}")
        st.markdown(f"{state} · version {progress['version']}")
        stages = progress["stages"]
        here = stages.index(progress["stage"])
        st.progress(
            1.0 if progress["completed"] else here / len(stages),
            text=" → ".join(
                f"**{s}**" if s == progress["stage"] and not progress["completed"] else s
                for s in stages
            ),
        )
        goals = progress["goals"]
        st.dataframe(
            [
                {
                    "goal": g,
                    "kind": r["kind"],
                    "required": r["required"],
                    "met": "✓" if r["met"] else "✗",
                    "check": r.get("check", ""),
                }
                for g, r in goals.items()
            ],
            hide_index=True,
            key=f"goals:{name}",
        )
        if editable and not progress["completed"]:
            collect = [g for g, r in goals.items() if r["kind"] == "collect"]
            if collect:
                # One form: every field is sent with the button, the one still being typed in
                # too (separate inputs lost a value typed just before the click).
                with st.form(key=f"values:{name}", border=False):
                    cols = st.columns(len(collect))
                    for col, goal in zip(cols, collect, strict=True):
                        col.text_input(goal, key=f"wf:{name}:{goal}")
                    st.form_submit_button(
                        "Save values",
                        key=f"submit:{name}",
                        on_click=_act,
                        args=("submit", name, title, collect),
                    )
            st.button("Advance", key=f"advance:{name}", on_click=_act, args=("advance", name))
        with st.expander("Collected values and history"):
            st.json(progress["values"])
            st.dataframe(progress["history"] or [], hide_index=True, key=f"history:{name}")


def _action(action: dict[str, Any]) -> None:
    with st.container(border=True):
        cols = st.columns([5, 1, 1])
        payload = action["payload"]
        summary = payload.get("subject") or payload.get("text") or payload.get("operation", "")
        cols[0].markdown(
            f"**{action['kind']}** to {payload.get('to', payload.get('connector'))}: {summary}"
        )
        status = STATUS_WORDS.get(action["status"], action["status"])
        cols[0].caption(
            status + (f" · proposed by {action['agent']}" if action.get("agent") else "")
        )
        if action["status"] == "awaitingApproval":
            aid, what = action["actionId"], f"the {action['kind']} “{summary}”"
            cols[1].button(
                "Approve", key=f"approve:{aid}", on_click=_act, args=("approve", aid, what)
            )
            cols[2].button("Reject", key=f"reject:{aid}", on_click=_act, args=("reject", aid, what))


def main() -> None:
    st.title("Workflows & outbox")
    if "workflows_error" in st.session_state:
        st.error(st.session_state.pop("workflows_error"))
    if "workflows_notice" in st.session_state:
        st.success(st.session_state.pop("workflows_notice"))
    identities = _identities()
    if identities:
        label = st.selectbox(
            "Whose progress and actions",
            [MINE, *identities],
            key="wf-whose-label",
            help="As the account's administrator you can follow a channel identity (an email "
            "or IM sender) and approve the actions proposed in its conversations.",
        )
        st.session_state[WHOSE_KEY] = identities.get(label)
    else:
        st.session_state[WHOSE_KEY] = None
    editable = st.session_state[WHOSE_KEY] is None
    client, user = _client(), session.user_key()
    try:
        workflows = client.workflows(user)
        actions = client.actions(user)
        outbox = client.outbox(user)
    except ClientError as exc:
        st.info(str(exc))
        return
    st.caption(
        "Progress is kept per user, across conversations, encrypted. A stage is left only "
        "when its required goals are met. Approved actions run once, even across retries "
        "and restarts."
    )
    st.header("Workflow progress")
    if not workflows:
        # Only an account of one's own gets here: the shipped one has two workflow agents.
        st.info("No agent of this account declares a workflow.")
    for progress in workflows:
        _workflow(progress, editable)
    st.header("Actions")
    if not actions:
        st.caption("No action yet.")
    for action in actions:
        _action(action)
    if editable:
        with st.expander("Propose an email (as an agent would)"):
            st.text_input("To", key="outbox:to", value="team@example.com")
            st.text_input("Subject", key="outbox:subject", value="Office closed on Friday")
            st.text_area("Body", key="outbox:body", value="The office is closed on Friday.")
            st.button("Propose", key="propose", on_click=_act, args=("propose",))
    st.header("Outbox")
    if outbox:
        st.dataframe(
            [
                {
                    "delivered": time_text(o["delivered"]),
                    "kind": o["kind"],
                    "to": o["payload"].get("to", o["payload"].get("connector", "")),
                    "what": o["payload"].get("subject") or o["payload"].get("text", ""),
                }
                for o in outbox
            ],
            hide_index=True,
            key="outbox",
        )
    else:
        st.caption("Nothing delivered yet.")


main()
