"""Talking to OpenAI-compatible endpoints: the client, its errors, and reading JSON answers."""
