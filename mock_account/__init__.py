"""The agent server: a mock 200-agent account whose conversations keep encrypted state.

Layers, from the bottom (each imports only those above it in this list; the import map of
docs/architecture.md is checked against the code by tests/test_docs_links.py):

    crypto/          the encryption recipe (AES-256-GCM, per-conversation keys, keyrings)
    stores/          where entries and encrypted states are kept (sqlite, postgres, redis, memory)
    understanding/   request understanding: the facts a request states
    business/        the mock business data agents look up
    search/          the search index, embeddings and follow-up routing
    world/           the mock world: records found, created and changed as a request says
    engine/          the state contract, the agent runtime, the mock language model
    workflows/       per-identity workflow progress, approved actions, the outbox
    config_history/  the agents' configuration history
    conversations/   the vault (the one save / restore path), the account facade, hooks,
                     retention, key rotation
    channels/        channels, identities, per-identity memory, the Inbox
    api/             all HTTP: routes, wire shapes, the error-to-status table
    cli/             the ``mock-account`` command

``deployment`` assembles an account from its configuration (below ``api``); ``users`` are the
mock users; ``errors`` are the core's typed errors.
"""
