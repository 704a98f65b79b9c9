"""Storage: the guild-scoped SQLite database (WAL, FTS5, sqlite-vec), its migrations, the
data directory's lock, and one class per table family owning its SQL."""
