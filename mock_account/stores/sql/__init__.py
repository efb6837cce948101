"""What the SQLite and PostgreSQL backends share: SQL that both dialects accept, with the few
differences (placeholders, time columns, connections) left to hooks of each backend."""
