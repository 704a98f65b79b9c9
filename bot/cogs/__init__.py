"""The bot's cogs: ingest (messages in, edits, deletions, replies) and the /memory commands."""
