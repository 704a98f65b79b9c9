"""Which extractor runs, as the settings choose it (the queue only knows the protocol)."""

from __future__ import annotations

from memory.extraction import Extractor, NoopExtractor
from memory.settings import Settings


def extractor_choice(settings: Settings) -> str:
    """``offline``, ``llm`` or ``none``: ``auto`` is ``llm`` when a model is configured, else
    ``offline`` (``heuristic``, the old name, is ``offline`` too)."""
    if settings.extractor == "auto":
        return "llm" if settings.llm_model else "offline"
    return "offline" if settings.extractor == "heuristic" else settings.extractor


def build_extractor(settings: Settings) -> Extractor:
    """The extraction step the queue runs, as the settings choose it."""
    choice = extractor_choice(settings)
    if choice == "none":
        return NoopExtractor()
    if choice == "offline":
        from memory.extraction.offline import OfflineExtractor

        return OfflineExtractor()
    from memory.extraction.llm import LLMExtractor  # imports openai: only when it is used

    return LLMExtractor.from_settings(settings)
