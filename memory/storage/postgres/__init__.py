"""The PostgreSQL backend: asyncpg, full text with ``tsvector`` + GIN, vectors in pgvector
columns. ``PostgresStore`` implements all of ``memory.storage.protocol.Storage``, each part
tested with the SQLite ``Store`` by one set of behaviour tests
(``tests/test_storage_backends.py``). ``MEMORYBOT_DATABASE_URL`` selects it
(``memory.storage.opening``); several processes share one database.

Its parts: the connection pool (``connection``), this process's own session, which names
its job claims and holds its journal locks (``session``), schema migrations of its own
(``migrations``, ``schema``), guilds, members, opt-outs and guild settings (``members``),
messages and their jobs as they are stored and read (``messages``), the full-text windows
of messages and facts (``words``), facts as the lifecycle's rules place them, lore, and
reading and editing facts (``facts``), jobs closed with their facts and an import's
members judged once idle (``placed``), members' paragraphs (``profiles``), deleting,
editing and forgetting (``forget``), fact vectors in pgvector (``fact_vectors``), the
audit log (``events``), the embedding cache (``vectors``), claimed jobs and the journal
backlog (``queue``), other processes' commits heard through LISTEN/NOTIFY (``changes``),
and a SQLite store moved in (``moving``).
"""
