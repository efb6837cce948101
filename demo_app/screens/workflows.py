"""Workflows & outbox: the user's progress in each workflow (stage, goals, values, history),
and the actions agents proposed, to approve or reject, with what they delivered.

The account's administrator can also pick one of the account's channel identities (an email
or IM sender, who has no dashboard) to follow its progress and approve its actions."""

from __future__ import annotations

from typing import Any

import streamlit as st

from demo_app import ui_session as session
from demo_app.channels_client import ChannelsClient
from demo_app.views import ClientError
from demo_app.workflows_client import WorkflowsClient

MINE = "My own"
WHOSE_KEY = "wf-whose"


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
            workflow, names = args
            values = {
                n: st.session_state.get(f"wf:{workflow}:{n}")
                for n in names
                if st.session_state.get(f"wf:{workflow}:{n}") not in (None, "")
            }
            client.submit(user, workflow, values)
            message = f"Saved {', '.join(values) or 'nothing'} for {workflow}."
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
            made = client.propose(user, "email", payload)
            message = f"Proposed {made['actionId']}: it waits for your approval."
        elif action == "approve":
            done = client.approve(user, args[0])
            message = f"Approved {args[0]}: {done['status']}."
        else:
            client.reject(user, args[0])
            message = f"Rejected {args[0]}."
        st.session_state["workflows_notice"] = message
    except ClientError as exc:
        st.session_state["workflows_error"] = str(exc)


def _workflow(progress: dict[str, Any], editable: bool) -> None:
    name = progress["workflow"]
    with st.container(border=True):
        state = "complete" if progress["completed"] else f"stage **{progress['stageTitle']}**"
        st.markdown(f"### {progress.get('title') or name}")
        st.markdown(f"`{name}` · {state} · version {progress['version']}")
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
            cols = st.columns(max(1, len(collect)))
            for col, goal in zip(cols, collect, strict=False):
                col.text_input(goal, key=f"wf:{name}:{goal}")
            left, right = st.columns(2)
            left.button(
                "Save values", key=f"submit:{name}", on_click=_act, args=("submit", name, collect)
            )
            right.button("Advance", key=f"advance:{name}", on_click=_act, args=("advance", name))
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
        cols[0].caption(
            f"{action['actionId']} · {action['status']}"
            + (f" · by {action['agent']}" if action.get("agent") else "")
        )
        if action["status"] == "awaitingApproval":
            aid = action["actionId"]
            cols[1].button("Approve", key=f"approve:{aid}", on_click=_act, args=("approve", aid))
            cols[2].button("Reject", key=f"reject:{aid}", on_click=_act, args=("reject", aid))


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
                    "delivered": o["delivered"][:19].replace("T", " "),
                    "kind": o["kind"],
                    "to": o["payload"].get("to", o["payload"].get("connector", "")),
                    "what": o["payload"].get("subject") or o["payload"].get("text", ""),
                    "action": o["actionId"],
                }
                for o in outbox
            ],
            hide_index=True,
            key="outbox",
        )
    else:
        st.caption("Nothing delivered yet.")


main()
