"""memorybot's memory: storage, ingest queue, extraction, embeddings, retrieval.

Never imports discord or aiohttp.
"""

__version__ = "0.1.0"
