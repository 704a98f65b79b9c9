"""The moderators' HTTP API and web page (aiohttp)."""
