"""Finding what memory holds: full text, vectors, the scoring formula, search and the slice,
and the one JSON shape of their results."""
