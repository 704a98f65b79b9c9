"""The PostgreSQL schema, one migration at a time (never edited once shipped). Every key
starts with the guild id: each query names one guild. Times are ``timestamptz``."""

from __future__ import annotations

P001_MEMBERS = [
    """
    CREATE TABLE guilds (
        guild_id   text PRIMARY KEY,
        name       text NOT NULL DEFAULT '',
        updated_at timestamptz NOT NULL
    )
    """,
    """
    CREATE TABLE members (
        guild_id     text NOT NULL,
        user_id      text NOT NULL,
        display_name text NOT NULL,
        username     text NOT NULL DEFAULT '',
        updated_at   timestamptz NOT NULL,
        PRIMARY KEY (guild_id, user_id)
    )
    """,
    """
    CREATE TABLE member_optouts (
        guild_id text NOT NULL,
        user_id  text NOT NULL,
        since    timestamptz NOT NULL,
        PRIMARY KEY (guild_id, user_id)
    )
    """,
    """
    CREATE TABLE guild_settings (
        guild_id   text NOT NULL,
        key        text NOT NULL,
        value      jsonb NOT NULL,
        updated_at timestamptz NOT NULL,
        PRIMARY KEY (guild_id, key)
    )
    """,
]

# Messages, and one ingest job per message (its key is the message's row id, so job order
# is arrival order). Row ids are never reused: a cursor over them holds.
P002_MESSAGES = [
    """
    CREATE TABLE messages (
        id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        guild_id    text NOT NULL,
        channel_id  text NOT NULL,
        message_id  text NOT NULL,
        author_id   text NOT NULL,
        author_name text NOT NULL,
        content     text NOT NULL,
        source      text NOT NULL CHECK (source IN ('text', 'voice', 'import', 'bot')),
        created_at  timestamptz NOT NULL,
        UNIQUE (guild_id, message_id)
    )
    """,
    "CREATE INDEX messages_guild_channel_time ON messages (guild_id, channel_id, created_at, id)",
    """
    CREATE TABLE ingest_jobs (
        message_row bigint PRIMARY KEY REFERENCES messages (id) ON DELETE CASCADE,
        guild_id    text NOT NULL,
        status      text NOT NULL DEFAULT 'pending'
                    CHECK (status IN ('pending', 'done', 'dropped', 'failed')),
        live        boolean NOT NULL DEFAULT true,
        trace       jsonb NOT NULL DEFAULT '{}',
        attempts    integer NOT NULL DEFAULT 0,
        last_error  text,
        created_at  timestamptz NOT NULL,
        updated_at  timestamptz NOT NULL,
        claimed_by  integer,
        claimed_until timestamptz
    )
    """,
    "CREATE INDEX ingest_jobs_pending ON ingest_jobs (message_row) WHERE status = 'pending'",
    """
    CREATE INDEX ingest_jobs_closed ON ingest_jobs (guild_id, status)
    WHERE status IN ('dropped', 'failed')
    """,
]

# Full text: each message's index words (``memory.search.fts.fts_words``: folded, CJK runs
# as bigrams; the same words SQLite's index holds) as a tsvector without positions, written
# with the message, and a GIN index over them.
P003_MESSAGE_WORDS = [
    "ALTER TABLE messages ADD COLUMN words tsvector NOT NULL DEFAULT ''",
    "CREATE INDEX messages_words ON messages USING gin (words)",
]

# The audit log (``memory.audit``): what memory did and who asked, newest first per guild,
# pruned by age.
P004_MEMORY_EVENTS = [
    """
    CREATE TABLE memory_events (
        id        bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        guild_id  text NOT NULL,
        at        timestamptz NOT NULL,
        kind      text NOT NULL,
        actor     text NOT NULL,
        object_id text NOT NULL DEFAULT '',
        subject   text NOT NULL DEFAULT '',
        detail    text NOT NULL DEFAULT ''
    )
    """,
    "CREATE INDEX memory_events_guild ON memory_events (guild_id, id)",
    "CREATE INDEX memory_events_at ON memory_events (at)",
]

# Vectors of texts by their SHA-256, per model: a text embedded once is never embedded again.
P005_EMBEDDING_CACHE = [
    """
    CREATE TABLE embedding_cache (
        sha256    text NOT NULL,
        model     text NOT NULL,
        dims      integer NOT NULL,
        embedding bytea NOT NULL,
        PRIMARY KEY (sha256, model)
    )
    """,
]

# Every committed change to what search, slices and caches read is announced to every
# process (``changes``): one notification per statement, delivered when it commits.
P006_CHANGE_NOTICES = [
    """
    CREATE FUNCTION memorybot_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        PERFORM pg_notify('memorybot_changes', TG_TABLE_NAME);
        RETURN NULL;
    END
    $$
    """,
    *(
        f"CREATE TRIGGER {table}_changed AFTER INSERT OR UPDATE OR DELETE ON {table} "
        "FOR EACH STATEMENT EXECUTE FUNCTION memorybot_changed()"
        for table in ("messages", "members", "guilds", "member_optouts", "guild_settings")
    ),
]

# Facts, with their life (issue 20: said again, superseded) and their index words (the fact's
# and its evidence's, as ``words`` holds a message's). Text is compared byte by byte (``C``),
# as SQLite does, whatever the database's collation.
P007_FACTS = [
    """
    CREATE TABLE memory_facts (
        id                bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        guild_id          text NOT NULL,
        channel_id        text,
        subject           text COLLATE "C" NOT NULL,
        fact              text COLLATE "C" NOT NULL,
        fact_type         text NOT NULL DEFAULT 'other'
                          CHECK (fact_type IN ('preference', 'profile', 'relationship',
                                               'project', 'event', 'other')),
        evidence_text     text NOT NULL DEFAULT '',
        source_message_id text,
        confidence        double precision NOT NULL CHECK (confidence BETWEEN 0 AND 1),
        is_active         boolean NOT NULL DEFAULT true,
        said_at           timestamptz NOT NULL,
        created_at        timestamptz NOT NULL,
        updated_at        timestamptz NOT NULL,
        author_id         text,
        superseded_by     bigint,
        valid_until       timestamptz,
        times_seen        integer NOT NULL DEFAULT 1,
        last_seen_at      timestamptz,
        words             tsvector NOT NULL DEFAULT '',
        UNIQUE (guild_id, subject, fact)
    )
    """,
    """
    CREATE INDEX memory_facts_recent
    ON memory_facts (guild_id, subject, is_active, updated_at, id)
    """,
    "CREATE INDEX memory_facts_source ON memory_facts (guild_id, source_message_id)",
    "CREATE INDEX memory_facts_words ON memory_facts USING gin (words)",
    "CREATE TRIGGER memory_facts_changed AFTER INSERT OR UPDATE OR DELETE ON memory_facts "
    "FOR EACH STATEMENT EXECUTE FUNCTION memorybot_changed()",
]

# Members whose imported facts wait to be judged whole once the queue is idle (issue 20).
P008_SUBJECTS_TO_SETTLE = [
    """
    CREATE TABLE subjects_to_settle (
        guild_id text NOT NULL,
        subject  text COLLATE "C" NOT NULL,
        PRIMARY KEY (guild_id, subject)
    )
    """,
]

# A member's condensed paragraph, written by the LLM from their facts (``fact_ids``).
P009_MEMBER_PROFILES = [
    """
    CREATE TABLE member_profiles (
        guild_id   text NOT NULL,
        subject    text COLLATE "C" NOT NULL,
        paragraph  text NOT NULL,
        fact_ids   bigint[] NOT NULL,
        digest     text NOT NULL,
        model      text NOT NULL,
        written_at timestamptz NOT NULL,
        PRIMARY KEY (guild_id, subject)
    )
    """,
]

# Fact vectors (pgvector): the models that have a table of them (``fact_vectors``), each
# table made with the model's first vector (a vector column has one width).
P010_VECTOR_MODELS = [
    "CREATE EXTENSION IF NOT EXISTS vector",
    """
    CREATE TABLE memory_vector_models (
        id    integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        model text NOT NULL UNIQUE,
        dims  integer NOT NULL
    )
    """,
]

# The stored messages whose daily-log lines are not written yet (``queue``).
P011_JOURNAL_BACKLOG = [
    """
    CREATE TABLE journal_backlog (
        message_row bigint PRIMARY KEY REFERENCES messages (id) ON DELETE CASCADE,
        guild_id    text NOT NULL
    )
    """,
    "CREATE INDEX journal_backlog_guild ON journal_backlog (guild_id, message_row)",
]

# The SQLite stores moved here (``moving``): a move run again goes on; one from elsewhere
# into a database holding memory is refused.
P012_MOVED_FROM = [
    """
    CREATE TABLE moved_from (
        source      text PRIMARY KEY,
        started_at  timestamptz NOT NULL DEFAULT now(),
        finished_at timestamptz
    )
    """,
]

# Each message's and fact's place among the guild's documents, its channel and its author,
# as lexemes of its ``words`` (``words.SPANS``): the newest matches of a word (in a channel,
# by some authors) are found by GIN alone, however common or rare the word, one span of the
# guild's history after another.
P013_SPANS = [
    """
    CREATE FUNCTION memorybot_spans() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        NEW.words := NEW.words || array_to_tsvector(ARRAY[
            '~11:' || NEW.guild_id || ':' || (NEW.id >> 11),
            '~14:' || NEW.guild_id || ':' || (NEW.id >> 14),
            '~17:' || NEW.guild_id || ':' || (NEW.id >> 17),
            '~20:' || NEW.guild_id || ':' || (NEW.id >> 20),
            '~g:' || NEW.guild_id,
            '~c:' || coalesce(NEW.channel_id, ''),
            '~a:' || coalesce(NEW.author_id, '')]);
        RETURN NEW;
    END
    $$
    """,
    *(
        f"CREATE TRIGGER {table}_spans BEFORE INSERT OR UPDATE OF words ON {table} "
        "FOR EACH ROW EXECUTE FUNCTION memorybot_spans()"
        for table in ("messages", "memory_facts")
    ),
    "UPDATE messages SET words = words",
    "UPDATE memory_facts SET words = words",
    "CREATE INDEX messages_guild_row ON messages (guild_id, id)",
    "CREATE INDEX memory_facts_guild_row ON memory_facts (guild_id, id)",
]

# The facts a fact superseded, found by it (a merge repoints them, a deletion brings them
# back), as SQLite's m015.
P014_FACTS_BY_SUCCESSOR = [
    "CREATE INDEX memory_facts_successor ON memory_facts (guild_id, superseded_by) "
    "WHERE superseded_by IS NOT NULL",
]

MIGRATIONS: list[tuple[str, list[str]]] = [
    ("p001_members", P001_MEMBERS),
    ("p002_messages", P002_MESSAGES),
    ("p003_message_words", P003_MESSAGE_WORDS),
    ("p004_memory_events", P004_MEMORY_EVENTS),
    ("p005_embedding_cache", P005_EMBEDDING_CACHE),
    ("p006_change_notices", P006_CHANGE_NOTICES),
    ("p007_facts", P007_FACTS),
    ("p008_subjects_to_settle", P008_SUBJECTS_TO_SETTLE),
    ("p009_member_profiles", P009_MEMBER_PROFILES),
    ("p010_vector_models", P010_VECTOR_MODELS),
    ("p011_journal_backlog", P011_JOURNAL_BACKLOG),
    ("p012_moved_from", P012_MOVED_FROM),
    ("p013_spans", P013_SPANS),
    ("p014_facts_by_successor", P014_FACTS_BY_SUCCESSOR),
]
