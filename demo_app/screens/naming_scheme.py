"""Naming scheme: the agreed names, the account's conformance, and a checker for one agent."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import streamlit as st

from agents_catalog.checker import (
    AccountIndex,
    InputError,
    Report,
    check_paths,
    check_text,
    load_account_index,
)
from agents_catalog.scheme import NamingScheme, load_scheme
from mock_account.deployment import default_account_dir

MAX_UPLOAD_BYTES = 200_000
SAMPLE = """name: BookHotelRoom
title: Book a hotel room for a trip
tag: Travel
description: Books a hotel near the destination of the trip already in the conversation.
examples:
- Book me a hotel for that trip
version: 1.0.0
main:
- prompt: {name: Chat, scope: agent, system: Book hotels., user: '{sys.query}'}
- var: {name: conv.trips, value: {destination: '{conv.trip.destination}'}}
- llm: {prompt: Chat, reply: 'Booked a room in {conv.trip.destination}.'}
- output: '{result}'
- end: {}
"""


@st.cache_resource(show_spinner="Checking the 200 agents of the account…")
def _account_report(folder: str) -> Report:
    return check_paths([folder], account_dir=folder)


@st.cache_resource(show_spinner=False)
def _account_index(folder: str) -> AccountIndex:
    return load_account_index(folder)


@st.cache_resource(show_spinner=False)
def _scheme() -> NamingScheme:
    return load_scheme()


def _findings_table(report: Report) -> None:
    rows = [
        {
            "severity": f.severity.value,
            "rule": f.rule_id,
            "file": Path(f.file).name,
            "line": f.line,
            "column": f.column,
            "message": f.message,
            "did you mean": f.suggestion or "",
        }
        for f in report.findings
    ]
    st.dataframe(rows, hide_index=True, use_container_width=True)


def _show_report(
    report: Report, alarm: Callable[[str], object], *, with_findings: str, clean: str
) -> None:
    """A report's message: ``with_findings`` through ``alarm`` above its findings' table, or
    ``clean`` as a success when it has none."""
    if report.findings:
        alarm(with_findings)
        _findings_table(report)
    else:
        st.success(clean)


def _scheme_tables(scheme: NamingScheme) -> None:
    st.subheader("Standard prompts")
    st.dataframe(
        [
            {"prompt": p.name, "scope": p.scope, "what it is for": p.description}
            for p in scheme.prompts.values()
        ],
        hide_index=True,
        use_container_width=True,
    )
    st.subheader(f"Agreed conversation variables ({len(scheme.variables)})")
    st.dataframe(
        [
            {
                "variable": f"conv.{v.name}",
                "holds": v.description,
                "fields": ", ".join(sorted((v.schema.get("properties") or {}).keys())),
                "required": ", ".join(v.schema.get("required") or ()),
            }
            for v in scheme.variables.values()
        ],
        hide_index=True,
        use_container_width=True,
    )
    chosen = st.selectbox("JSON Schema of", sorted(scheme.variables), key="scheme-variable")
    st.code(json.dumps(scheme.variables[chosen].schema, indent=2), language="json")


def _check_one(folder: str) -> None:
    st.subheader("Check an agent file")
    uploaded = st.file_uploader("Upload an agent (.yaml)", type=["yaml", "yml"], key="upload")
    text = st.text_area("…or paste it here", value=SAMPLE, height=300, key="agent-text")
    if not st.button("Check", key="check-agent", type="primary"):
        return
    name = "pasted.yaml"
    if uploaded is not None:
        raw = uploaded.getvalue()
        if len(raw) > MAX_UPLOAD_BYTES:
            st.error(f"That file is over {MAX_UPLOAD_BYTES // 1000} KB; an agent file is smaller.")
            return
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            st.error(f"{uploaded.name} is not UTF-8 text.")
            return
        name = uploaded.name
    if not text.strip():
        st.error("Paste an agent file (YAML) or upload one first.")
        return
    try:
        report = check_text(text, name, scheme=_scheme(), account=_account_index(folder))
    except InputError as exc:
        st.error(str(exc))
        return
    summary = report.summary()
    _show_report(
        report,
        st.error,
        with_findings=f"{name}: {summary}",
        clean=f"{name}: {summary} — it follows the naming scheme.",
    )


def main() -> None:
    st.title("Naming scheme and conformance")
    folder = str(default_account_dir())
    scheme = _scheme()
    tabs = st.tabs(["Scheme", "Account report", "Check an agent"])
    with tabs[0]:
        _scheme_tables(scheme)
    with tabs[1]:
        report = _account_report(folder)
        message = f"The account: {report.summary()}."
        _show_report(report, st.warning, with_findings=message, clean=message)
    with tabs[2]:
        _check_one(folder)


try:
    main()
except InputError as exc:
    st.error(str(exc))
