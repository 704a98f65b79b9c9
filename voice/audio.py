"""PCM helpers for voice: Discord's 48 kHz stereo to 16 kHz mono, framing and WAV, numpy only.

Discord delivers decoded Opus as signed 16-bit little-endian stereo at 48 kHz; speech-to-text
wants 16 kHz mono. :class:`Downsampler` averages the two channels, low-passes with a
193-tap Kaiser-windowed FIR (flat to 6.5 kHz, -21 dB at 7.5 kHz, about -80 dB from 7.9 kHz)
and keeps every third sample, computing only the samples it keeps. It is stateful, so a
stream fed in 20 ms packets comes out exactly as if converted in one piece. (discord.py's
``audioop`` is deprecated and gone in Python 3.13.)
"""

from __future__ import annotations

import io
import logging
import wave
from collections.abc import Iterator

import numpy as np
import numpy.typing as npt

log = logging.getLogger(__name__)

DISCORD_RATE = 48_000
DISCORD_CHANNELS = 2
STT_RATE = 16_000
SAMPLE_WIDTH = 2
"""Bytes per sample (s16le)."""
FRAME_MS = 20
STT_FRAME_BYTES = STT_RATE * FRAME_MS // 1000 * SAMPLE_WIDTH
"""One 20 ms frame of 16 kHz mono s16le: 640 bytes."""

_DECIMATION = DISCORD_RATE // STT_RATE
_TAPS = 193
_CUTOFF_HZ = 7_200.0
_KAISER_BETA = 8.0

FloatArray = npt.NDArray[np.float64]


def lowpass_taps(
    taps: int = _TAPS, cutoff_hz: float = _CUTOFF_HZ, rate: int = DISCORD_RATE
) -> FloatArray:
    """A linear-phase windowed-sinc low-pass FIR with unit gain at DC."""
    n = np.arange(taps) - (taps - 1) / 2
    ideal = np.sinc(2 * cutoff_hz / rate * n)
    kernel: FloatArray = ideal * np.kaiser(taps, _KAISER_BETA)
    normalised: FloatArray = kernel / kernel.sum()
    return normalised


class Downsampler:
    """Streaming 48 kHz stereo s16le → 16 kHz mono s16le (mix, FIR low-pass, decimate by 3).

    Feed any number of bytes at a time; a trailing partial stereo frame is kept for the next
    call. The filter delays the signal by ``(taps - 1) / 2`` input samples (2 ms).
    """

    def __init__(self) -> None:
        self._kernel = lowpass_taps()[::-1].copy()
        self._history: FloatArray = np.zeros(len(self._kernel) - 1)
        self._phase = 0
        self._leftover = b""

    def process(self, pcm48k_stereo: bytes) -> bytes:
        """Convert the next chunk of the stream; returns whatever output it completes."""
        data = self._leftover + pcm48k_stereo
        usable = len(data) - len(data) % (SAMPLE_WIDTH * DISCORD_CHANNELS)
        self._leftover = data[usable:]
        if not usable:
            return b""
        stereo = np.frombuffer(data[:usable], dtype="<i2").reshape(-1, DISCORD_CHANNELS)
        mono = stereo.astype(np.float64).mean(axis=1)
        signal = np.concatenate([self._history, mono])
        windows = np.lib.stride_tricks.sliding_window_view(signal, len(self._kernel))
        kept = windows[self._phase :: _DECIMATION]
        out = kept @ self._kernel
        self._phase = self._phase + len(kept) * _DECIMATION - len(windows)
        self._history = signal[len(signal) - len(self._history) :]
        return to_s16le(out)


def stereo48k_to_mono16k(pcm48k_stereo: bytes) -> bytes:
    """Convert one whole 48 kHz stereo s16le buffer to 16 kHz mono s16le."""
    return Downsampler().process(pcm48k_stereo)


def to_s16le(samples: FloatArray) -> bytes:
    """Round, clip and pack float samples (in int16 units) as s16le bytes."""
    return np.clip(np.rint(samples), -32768, 32767).astype("<i2").tobytes()


def frames(pcm16k: bytes, frame_bytes: int = STT_FRAME_BYTES) -> Iterator[bytes]:
    """Split 16 kHz mono PCM into whole 20 ms frames (a trailing partial frame is dropped)."""
    for offset in range(0, len(pcm16k) - frame_bytes + 1, frame_bytes):
        yield pcm16k[offset : offset + frame_bytes]


def duration(pcm: bytes, rate: int = STT_RATE, channels: int = 1) -> float:
    """Seconds of audio in ``pcm`` (s16le)."""
    return len(pcm) / (rate * channels * SAMPLE_WIDTH)


def to_wav(pcm: bytes, rate: int = STT_RATE, channels: int = 1) -> bytes:
    """Wrap s16le PCM in an in-memory WAV file."""
    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as wav:
        wav.setnchannels(channels)
        wav.setsampwidth(SAMPLE_WIDTH)
        wav.setframerate(rate)
        wav.writeframes(pcm)
    return buffer.getvalue()


def read_wav(data: bytes) -> tuple[bytes, int, int]:
    """``(pcm, rate, channels)`` of a 16-bit PCM WAV file's bytes."""
    with wave.open(io.BytesIO(data), "rb") as wav:
        if wav.getsampwidth() != SAMPLE_WIDTH:
            raise ValueError(f"expected 16-bit samples, got {8 * wav.getsampwidth()}-bit")
        return wav.readframes(wav.getnframes()), wav.getframerate(), wav.getnchannels()
