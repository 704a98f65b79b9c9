"""voice.stt: espeak fixtures through the whole audio path into pocketsphinx, garbage filtering,
and the OpenAI-compatible transcriber against a local fake ``/v1/audio/transcriptions``."""

from __future__ import annotations

from tests.machine import require_voice

require_voice()  # skips the module without the voice extra

import asyncio
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import openai
import pytest
from aiohttp import BodyPartReader, web

from voice.audio import Downsampler, read_wav, to_wav
from voice.segmenter import SpeakerSegmenters, Utterance
from voice.stt import OpenAITranscriber, PocketSphinxTranscriber, TranscriptionError, is_garbage

FIXTURES = Path(__file__).parent / "data" / "voice"
DISCORD_PACKET = 3840  # 20 ms of 48 kHz stereo s16le


def fixture_pcm(name: str) -> bytes:
    pcm, rate, channels = read_wav((FIXTURES / f"{name}.wav").read_bytes())
    assert (rate, channels) == (16_000, 1)
    return pcm


def to_discord(pcm16k: bytes) -> bytes:
    """16 kHz mono → 48 kHz stereo, as Discord would deliver it (linear interpolation)."""
    mono = np.frombuffer(pcm16k, dtype="<i2").astype(np.float64)
    upsampled = np.interp(np.arange(3 * len(mono)) / 3, np.arange(len(mono)), mono)
    return np.repeat(np.rint(upsampled), 2).astype("<i2").tobytes()


def receive(speaker_id: int, pcm48k_stereo: bytes) -> list[Utterance]:
    """What the receive side will do: 20 ms packets → downsample → per-speaker segmenter."""
    downsampler = Downsampler()
    speakers = SpeakerSegmenters()
    done: list[Utterance] = []
    for offset in range(0, len(pcm48k_stereo), DISCORD_PACKET):
        packet = pcm48k_stereo[offset : offset + DISCORD_PACKET]
        done.extend(speakers.feed(speaker_id, downsampler.process(packet)))
    done.extend(speakers.flush_all())
    return done


@pytest.fixture(scope="module")
def sphinx() -> PocketSphinxTranscriber:
    return PocketSphinxTranscriber()


# --- pocketsphinx on the espeak fixtures -------------------------------------------------------

# Words pocketsphinx gets right for these fixtures (its decoding is deterministic); it
# mishears others ("I live in Boston" → "i really lost in", "Anna" → "and the").
ROBUST_WORDS = {
    "sarah": {"name", "nurse"},
    "tom": {"dog"},
    "anna": {"guitar", "sunday"},
}


@pytest.mark.parametrize("name", sorted(ROBUST_WORDS))
@pytest.mark.slow
async def test_spoken_fixture_through_the_pipeline(
    name: str, sphinx: PocketSphinxTranscriber
) -> None:
    silence = bytes(16_000 * 2)
    pcm48k = to_discord(silence[:16_000] + fixture_pcm(name) + silence)
    [utterance] = receive(42, pcm48k)
    assert utterance.speaker_id == 42
    assert 0.2 <= utterance.start <= 0.6
    text = await sphinx.transcribe(utterance.pcm)
    assert ROBUST_WORDS[name] <= set(text.split()), text
    assert not is_garbage(text)


def test_silence_gives_no_utterance() -> None:
    # (pocketsphinx fed pure silence anyway hallucinates a word: the segmenter must stop it)
    assert receive(1, bytes(48_000 * 4 * 3)) == []


async def test_white_noise_is_dropped(sphinx: PocketSphinxTranscriber) -> None:
    rng = np.random.default_rng(3)
    noise = np.clip(rng.normal(0, 2000, 16_000 * 3), -32768, 32767).astype("<i2").tobytes()
    for utterance in receive(1, to_discord(noise)):
        text = await sphinx.transcribe(utterance.pcm)
        assert is_garbage(text), text


async def test_empty_audio_transcribes_to_nothing(sphinx: PocketSphinxTranscriber) -> None:
    assert await sphinx.transcribe(b"") == ""


# --- garbage filter ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "uh",
        "Um...",
        "hmm hmm",
        "[noise]",
        "<unk>",
        "<sil> uh <unk>",
        "...",
        "?!",
        "(inaudible)",
        "[BLANK_AUDIO]",
    ],
)
def test_garbage_transcripts(text: str) -> None:
    assert is_garbage(text)


@pytest.mark.parametrize("text", ["my name is Sarah", "uh I work as a nurse", "ok", "42", "Zoë"])
def test_real_transcripts(text: str) -> None:
    assert not is_garbage(text)


# --- OpenAI-compatible transcription --------------------------------------------------------------


@dataclass
class FakeTranscriptions:
    """A loopback aiohttp server with ``POST /v1/audio/transcriptions`` (multipart form)."""

    text: str = "my name is Sarah and I work as a nurse"
    fail_with: int | None = None
    trickle: bool = False  # answer one byte a second, never finishing in time
    requests: list[dict[str, object]] = field(default_factory=list)
    base_url: str = ""

    async def handle(self, request: web.Request) -> web.StreamResponse:
        form: dict[str, object] = {"authorization": request.headers.get("Authorization")}
        reader = await request.multipart()
        while (part := await reader.next()) is not None:
            assert isinstance(part, BodyPartReader)
            if part.filename is not None:
                form["filename"] = part.filename
                form["content_type"] = part.headers.get("Content-Type")
                form[part.name or "file"] = await part.read()
            else:
                form[part.name or ""] = await part.text()
        self.requests.append(form)
        if self.trickle:
            response = web.StreamResponse(headers={"Content-Type": "application/json"})
            await response.prepare(request)
            for byte in b'{"text": "' + b"x" * 60:
                await response.write(bytes([byte]))
                await asyncio.sleep(1.0)
            return response
        if self.fail_with is not None:
            return web.json_response({"error": {"message": "boom"}}, status=self.fail_with)
        return web.json_response({"text": f" {self.text} "})


async def test_openai_transcriber_sends_a_wav(fake_stt: FakeTranscriptions) -> None:
    pcm = fixture_pcm("sarah")
    async with openai.AsyncOpenAI(base_url=fake_stt.base_url, api_key="k", max_retries=0) as client:
        transcriber = OpenAITranscriber("whisper-1", client=client, timeout=10, language="en")
        text = await transcriber.transcribe(pcm)
    assert text == "my name is Sarah and I work as a nurse"
    [sent] = fake_stt.requests
    assert sent["model"] == "whisper-1"
    assert sent["language"] == "en"
    assert sent["authorization"] == "Bearer k"
    assert sent["filename"] == "utterance.wav"
    assert sent["file"] == to_wav(pcm)


async def test_openai_transcriber_error_is_a_transcription_error(
    fake_stt: FakeTranscriptions,
) -> None:
    fake_stt.fail_with = 500
    async with openai.AsyncOpenAI(base_url=fake_stt.base_url, api_key="k", max_retries=0) as client:
        with pytest.raises(TranscriptionError):
            await OpenAITranscriber("whisper-1", client=client, timeout=10).transcribe(bytes(640))
    assert "language" not in fake_stt.requests[0]


@pytest.mark.slow
async def test_a_transcription_trickling_a_byte_a_second_ends_at_the_deadline(
    fake_stt: FakeTranscriptions,
) -> None:
    """The endpoint's deadline covers speech-to-text too (the whole request, not each
    read), and the endpoint found down is not asked again at once."""
    fake_stt.trickle = True
    transcriber = OpenAITranscriber("whisper-1", base_url=fake_stt.base_url, api_key="k", timeout=2)
    try:
        async with asyncio.timeout(10):  # a bound against hanging, not a measured wait
            with pytest.raises(TranscriptionError, match="timed out after 2 s"):
                await transcriber.transcribe(bytes(640))
            with pytest.raises(TranscriptionError, match="not sent: the endpoint is down"):
                await transcriber.transcribe(bytes(640))
    finally:
        await transcriber.aclose()
    assert len(fake_stt.requests) == 1
