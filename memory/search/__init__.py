"""Finding what memory holds: search results and their one JSON shape."""
