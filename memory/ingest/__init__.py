"""Ingest: the bounded, durable queue that stores what members say (``queue.py``), the
worker that extracts facts from it (``worker.py``) and the follower that journals and
indexes it (``journal.py``), around the book of pending jobs they share (``jobs.py``)."""

from memory.extraction.fact_filter import keep_fact
from memory.ingest.jobs import IngestHandle
from memory.ingest.journal import JOURNAL_BATCH, JournalSink
from memory.ingest.queue import BulkOutcome, IngestQueue

__all__ = [
    "JOURNAL_BATCH",
    "BulkOutcome",
    "IngestHandle",
    "IngestQueue",
    "JournalSink",
    "keep_fact",
]
