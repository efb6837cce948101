"""The demo: ``streamlit run demo_app/app.py`` (what ``make demo`` starts).

Embedded by default (an in-process account, SQLite under the project's data folder), or
pointed at any server speaking the Search2o API with a URL and a bearer token.

Only Streamlit and the first screen are imported here: the page paints at once, and the
account's code and data load behind it (``first_screen.wait_for_account``).
"""

from __future__ import annotations

import streamlit as st

from demo_app import first_screen

PAGES = [
    ("screens/chat.py", "Chat", ":material/chat:"),
    ("screens/inspector.py", "Conversation state", ":material/data_object:"),
    ("screens/conversations.py", "Conversations", ":material/forum:"),
    ("screens/inbox.py", "Inbox", ":material/inbox:"),
    ("screens/agents.py", "Agents", ":material/groups:"),
    ("screens/agent_history.py", "Agent history", ":material/history:"),
    ("screens/naming_scheme.py", "Naming scheme", ":material/rule:"),
    ("screens/benchmark.py", "Benchmark", ":material/speed:"),
    ("screens/workflows.py", "Workflows & outbox", ":material/checklist:"),
]


# An emoji: Streamlit draws it locally (a ":material/…:" icon is fetched from the internet).
PAGE_ICON = "💬"
# Streamlit's top padding (6rem) would push each page's first table past a 720 px screen.
STYLE = "<style>[data-testid='stMainBlockContainer'] { padding-top: 2.5rem; }</style>"


def main() -> None:
    st.set_page_config(page_title=first_screen.PRODUCT_NAME, page_icon=PAGE_ICON, layout="wide")
    st.html(STYLE)
    pages = [st.Page(path, title=title, icon=icon) for path, title, icon in PAGES]
    page = st.navigation(pages)
    if first_screen.wait_for_account(page.title, is_chat=page is pages[0]):
        return
    from demo_app.sidebar import show_reported_behavior, sidebar  # loaded by now: instant

    slot = sidebar()
    page.run()
    if slot is not None:
        # Filled after the page ran, so it shows what this very run's search reported.
        show_reported_behavior(slot)


main()
