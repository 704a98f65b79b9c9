"""The PostgreSQL backend (issue 23), being built: asyncpg, full text with ``tsvector`` +
GIN, vectors in pgvector columns. ``PostgresStore`` implements all of
``memory.storage.protocol.Storage``, each part tested with the SQLite ``Store`` by one set
of behaviour tests (``tests/test_storage_backends.py``). ``MEMORYBOT_DATABASE_URL``
selects it (``memory.storage.opening``).

So far: the connection pool (``connection``), schema migrations of its own
(``migrations``, ``schema``), guilds, members, opt-outs and guild settings (``members``),
messages and their jobs as they are stored and read (``messages``), the full-text windows
of messages and facts (``words``), facts as the lifecycle's rules place them, lore, and
reading and editing facts (``facts``), jobs closed with their facts and an import's
members judged once idle (``placed``), members' paragraphs (``profiles``), deleting,
editing and forgetting (``forget``), fact vectors in pgvector (``fact_vectors``), the
audit log (``events``), the embedding cache (``vectors``), the queue's pending jobs and
journal cursor, for one process so far (``queue``), and other processes' commits heard
through LISTEN/NOTIFY (``changes``).
"""
