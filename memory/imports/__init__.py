"""Discord exports (DiscordChatExporter JSON) into memory: streamed parsing, the reader child
process, and the importer that feeds the ingest queue."""
