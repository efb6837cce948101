"""The Streamlit demo (``streamlit run demo_app/app.py`` or ``python -m demo_app``).

``client`` is the one interface the pages use (in-process or HTTP), ``views`` the typed
answers they show, ``screens/`` the pages.
"""
