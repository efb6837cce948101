"""The agent server: a mock 200-agent account whose conversations keep encrypted state.

Layers, from the bottom (each imports only those above it in this list; see the README's
Layout section):

    crypto/          the encryption recipe (AES-256-GCM, per-conversation keys, keyrings)
    stores/          where entries and encrypted states are kept (sqlite, postgres, redis, memory)
    engine/          the state contract, the agent runtime, the mock language model
    business/        the mock business data agents look up
    search/          the search index, embeddings and follow-up routing
    conversations/   the vault (the one save / restore path), the account facade, hooks,
                     retention, key rotation
    api/             all HTTP: routes, wire shapes, the error-to-status table
    cli/             the ``mock-account`` command

``deployment`` assembles an account from its configuration; ``users`` are the mock users;
``errors`` are the core's typed errors.
"""
