"""Agent history: an agent's configuration versions, their diffs, edits and restores.

Every save is kept (the most recent N per section); a restore is itself a version, so it can
be undone by restoring the version before it. Edits are live: the chat's next search and run
use them, with no restart.
"""

from __future__ import annotations

from typing import Any

import streamlit as st
import yaml

from demo_app import ui_session as session
from demo_app.config_client import ConfigClient, ConfigRefusedError, config_client
from demo_app.views import ClientError
from mock_account.config_history import SECTIONS

DEFAULT_AGENT = "BookBusinessFlight"


def _client() -> ConfigClient:
    client = session.client()
    key = ("config_client", id(client), session.user_key())
    cached = st.session_state.get("config_client")
    if cached is None or cached[0] != key:
        cached = (key, config_client(client, session.user_key()))
        st.session_state["config_client"] = cached
    return cached[1]


def _agent_names() -> list[str]:
    return sorted(session.catalog().agents)


def _versions(client: ConfigClient, agent: str, section: str) -> list[dict[str, Any]]:
    return list(client.versions(agent, section)["sections"][section])


def _history(client: ConfigClient, agent: str, section: str) -> None:
    versions = _versions(client, agent, section)
    st.dataframe(
        [
            {
                "version": v["revision"],
                "current": "yes" if v["current"] else "",
                "how": v["origin"],
                "by": v["author"] or "",
                "when": v["created"] or "",
            }
            for v in versions
        ],
        hide_index=True,
        width="stretch",
    )
    older = [v["revision"] for v in versions if not v["current"]]
    if not older:
        st.caption("No earlier version yet: save an edit below and it appears here.")
        return
    chosen = st.selectbox(
        "Compare an earlier version with the current one", older, key=f"hist-pick-{section}"
    )
    diff = client.diff(agent, section, int(chosen))
    if not diff:
        # Restoring it would change nothing (and, as nothing changed, add no version).
        st.caption(f"Version {chosen} is the same as the current one: nothing to restore.")
        return
    st.code(diff, language="diff")
    if st.button(
        f"Restore version {chosen}",
        key=f"hist-restore-{section}",
        help="Undoable: the current version stays in the history.",
    ):
        result = client.restore(agent, section, int(chosen))
        st.session_state["hist-note"] = (
            f"Restored version {chosen} of {section} as version {result['revision']}."
        )
        st.rerun()


def _editor(client: ConfigClient, agent: str, section: str, config: dict[str, Any]) -> None:
    current = yaml.safe_dump(config["sections"][section], sort_keys=False, allow_unicode=True)
    with st.form(f"hist-edit-{section}"):
        text = st.text_area(
            f"Edit the {section} section (YAML)",
            current,
            height=260,
            # A new revision starts from what it holds, not from what was typed before.
            key=f"hist-text-{agent}-{section}-{config['revision']}",
        )
        saved = st.form_submit_button("Save (live at once)")
    if not saved:
        return
    try:
        content = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        st.error(f"That is not valid YAML: {exc}")
        return
    try:
        result = client.save(agent, section, content, base_revision=config["revision"])
    except ConfigRefusedError as exc:
        st.error(str(exc))
        st.dataframe(exc.findings, hide_index=True, width="stretch")
        return
    if not result["changedSections"]:
        st.session_state["hist-note"] = "Nothing changed: no version added."
    else:
        st.session_state["hist-note"] = (
            f"Saved {', '.join(result['changedSections'])} as version {result['revision']} "
            f"({agent} {result['version']}); the next search and run use it."
        )
    st.rerun()


def main() -> None:
    st.title("Agent history")
    st.caption(
        "Every save of an agent's configuration is kept per section (description, commands, "
        "asks); a restore is a version too, so it can be undone. Edits are live: no restart."
    )
    names = _agent_names()
    agent = st.selectbox(
        "Agent",
        names,
        index=names.index(DEFAULT_AGENT) if DEFAULT_AGENT in names else 0,
        key="hist-agent",
    )
    note = st.session_state.pop("hist-note", None)
    if note:
        st.success(note)
    try:
        client = _client()
        config = client.get(agent)
        st.caption(f"{agent} {config['version']} · revision {config['revision']}")
        for tab, section in zip(st.tabs(list(SECTIONS)), SECTIONS, strict=True):
            with tab:
                _history(client, agent, section)
                _editor(client, agent, section, config)
        _clone(client, agent)
    except ClientError as exc:
        st.error(str(exc))


def _clone(client: ConfigClient, agent: str) -> None:
    with st.expander(f"Clone {agent}"):
        with st.form("hist-clone"):
            name = st.text_input("New agent's name", key="hist-clone-name")
            cloned = st.form_submit_button("Clone (configuration only, no history)")
        if cloned:
            result = client.clone(agent, name.strip())
            st.session_state["hist-note"] = (
                f"Cloned {agent} as {result['agentName']}: searchable and runnable now."
            )
            st.rerun()


main()
