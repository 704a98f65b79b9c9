"""Speech-to-text for utterances: offline pocketsphinx or an OpenAI-compatible endpoint.

Both take 16 kHz mono s16le PCM (a :class:`voice.segmenter.Utterance`'s ``pcm``) and return
plain text. :func:`is_garbage` tells which transcripts to drop before ingest.
"""

from __future__ import annotations

import asyncio
import logging
import re
import threading
from typing import Any, Protocol

import openai
from openai.types.audio import Transcription

from memory.llm.endpoint import OpenAIEndpoint
from memory.llm.errors import LLMRequestError
from memory.settings import LLM_COOLDOWN, LOCAL_STT, Settings
from voice.audio import to_wav

log = logging.getLogger(__name__)

# Tuned on the espeak fixtures: same words as pocketsphinx's defaults at ~0.3x the CPU.
POCKETSPHINX_OPTIONS: dict[str, float | int | str] = {"maxhmmpf": 3000, "maxwpf": 5}

FILLERS = frozenset(
    {"uh", "um", "uhm", "umm", "hm", "hmm", "mm", "mhm", "ah", "eh", "er", "erm", "oh", "huh"}
)
_MARKUP = re.compile(r"\[[^\]]*\]|<[^>]*>|\([^)]*\)")
_WORD = re.compile(r"[^\W_]+")


class TranscriptionError(Exception):
    """A transcriber could not turn an utterance into text."""


class Transcriber(Protocol):
    """Turns one utterance of 16 kHz mono s16le PCM into text ("" when nothing was heard)."""

    async def transcribe(self, pcm16k: bytes) -> str: ...


def is_garbage(text: str) -> bool:
    """True for transcripts not worth ingesting: empty, only fillers, noise tags or punctuation.

    Tags such as ``[noise]``, ``<unk>``, ``<sil>`` or ``(inaudible)`` are ignored, then the
    transcript is garbage if no word is left that is not a filler ("uh", "um", "hmm", ...).
    """
    words = _WORD.findall(_MARKUP.sub(" ", text).lower())
    return all(word in FILLERS for word in words)


class PocketSphinxTranscriber:
    """Offline transcription with pocketsphinx's bundled en-US model (no network).

    The decoder loads on first use and decodes in a worker thread, one utterance at a time.
    """

    def __init__(self, **options: float | int | str) -> None:
        self._options = {**POCKETSPHINX_OPTIONS, **options}
        self._decoder: Any = None
        self._lock = threading.Lock()

    async def transcribe(self, pcm16k: bytes) -> str:
        return await asyncio.to_thread(self.transcribe_sync, pcm16k)

    def transcribe_sync(self, pcm16k: bytes) -> str:
        """Decode in the calling thread (blocking)."""
        if not pcm16k:
            return ""
        with self._lock:
            decoder = self._load()
            try:
                decoder.start_utt()
                decoder.process_raw(pcm16k, full_utt=True)
                decoder.end_utt()
            except RuntimeError as exc:
                raise TranscriptionError(f"pocketsphinx failed: {exc}") from exc
            hypothesis = decoder.hyp()
        return str(hypothesis.hypstr).strip() if hypothesis is not None else ""

    def _load(self) -> Any:
        if self._decoder is None:
            from pocketsphinx import Config, Decoder  # type: ignore[import-untyped]

            self._decoder = Decoder(Config(loglevel="FATAL", **self._options))
            log.info("pocketsphinx decoder loaded")
        return self._decoder


class OpenAITranscriber(OpenAIEndpoint):
    """Transcription through an OpenAI-compatible ``POST /audio/transcriptions``: the
    utterance is sent as an in-memory WAV, within the endpoint's deadline and behind its
    circuit breaker, as every request of memorybot's (:class:`OpenAIEndpoint`)."""

    def __init__(
        self,
        model: str,
        *,
        client: openai.AsyncOpenAI | None = None,
        base_url: str | None = None,
        api_key: str | None = None,
        timeout: float,
        max_retries: int = 2,
        cooldown: float = LLM_COOLDOWN,
        language: str | None = None,
    ) -> None:
        super().__init__(
            "speech-to-text", model, client=client, base_url=base_url, api_key=api_key,
            timeout=timeout, max_retries=max_retries, cooldown=cooldown,
        )  # fmt: skip
        self._language = language

    async def transcribe(self, pcm16k: bytes) -> str:
        wav = ("utterance.wav", to_wav(pcm16k), "audio/wav")
        language = openai.omit if self._language is None else self._language
        try:
            result = await self._send(
                lambda: self.client.audio.transcriptions.create(
                    model=self.model, file=wav, language=language
                ),
                Transcription,
                "a transcription",
            )
        except LLMRequestError as exc:
            raise TranscriptionError(f"transcription failed: {exc}") from exc
        return result.text.strip()


STT_RETRIES = 2


def build_transcriber(settings: Settings) -> Transcriber:
    """The transcriber ``MEMORYBOT_STT_MODEL`` chooses: ``local`` is pocketsphinx; any other
    name is that model of the OpenAI-compatible endpoint (``MEMORYBOT_LLM_BASE_URL`` /
    ``MEMORYBOT_LLM_API_KEY``, falling back to ``OPENAI_BASE_URL`` / ``OPENAI_API_KEY``)."""
    if settings.stt_model == LOCAL_STT:
        return PocketSphinxTranscriber()
    return OpenAITranscriber(
        settings.stt_model,
        base_url=settings.endpoint_url,
        api_key=settings.endpoint_key,
        timeout=settings.llm_timeout,
        max_retries=STT_RETRIES,
        cooldown=settings.llm_cooldown,
        language=settings.stt_language,
    )
