"""Cut each speaker's 16 kHz mono audio into utterances on silence.

A :class:`Segmenter` is fed one speaker's PCM (any chunk size; it works on 20 ms frames) and
asks a :class:`VoiceActivityDetector` about every frame. The rules:

- an utterance starts at the first speech frame, with up to 200 ms of the audio just before it
  (voice-activity detectors notice a word's onset a little late);
- it ends after 700 ms of silence (the trailing silence beyond 200 ms is not kept);
- it is capped at 15 s of audio: at the cap it is cut and the next speech frame starts a new
  one;
- an utterance with under 300 ms of speech frames is dropped (coughs, clicks, "mm").

So a segmenter never holds more than 15 s of audio. ``Utterance.start`` is in seconds since
that speaker's first frame, counted in audio fed, not wall-clock: the receive side should feed
silence for the gaps Discord leaves when nobody talks, or call :meth:`Segmenter.flush` when a
speaker goes quiet. :class:`SpeakerSegmenters` keeps one segmenter per speaker, so people
talking over each other never share an utterance.
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

import webrtcvad  # type: ignore[import-untyped]

from voice.audio import FRAME_MS, STT_FRAME_BYTES, STT_RATE, duration

log = logging.getLogger(__name__)

SILENCE_END_MS = 700
MAX_UTTERANCE_MS = 15_000
MIN_SPEECH_MS = 300
PRE_ROLL_MS = 200
TRAILING_KEEP_MS = 200


class VoiceActivityDetector(Protocol):
    """Decides whether one 20 ms frame of 16 kHz mono s16le PCM holds speech."""

    def is_speech(self, frame: bytes) -> bool: ...


class WebRtcVad:
    """The WebRTC voice-activity detector (``webrtcvad-wheels``).

    ``aggressiveness`` 0-3: higher rejects more non-speech (and some quiet speech).
    """

    def __init__(self, aggressiveness: int = 2) -> None:
        self._vad = webrtcvad.Vad(aggressiveness)

    def is_speech(self, frame: bytes) -> bool:
        return bool(self._vad.is_speech(frame, STT_RATE))


@dataclass(frozen=True)
class Utterance:
    """One stretch of one speaker's speech, 16 kHz mono s16le."""

    speaker_id: int
    start: float
    """Seconds since the speaker's first frame (audio fed, not wall-clock)."""
    pcm: bytes
    duration: float
    """Seconds of audio in ``pcm``."""


def _frames(ms: int) -> int:
    return ms // FRAME_MS


class Segmenter:
    """One speaker's utterance segmenter (see the module docstring for the rules)."""

    def __init__(
        self,
        speaker_id: int,
        vad: VoiceActivityDetector | None = None,
        *,
        silence_end_ms: int = SILENCE_END_MS,
        max_utterance_ms: int = MAX_UTTERANCE_MS,
        min_speech_ms: int = MIN_SPEECH_MS,
    ) -> None:
        self.speaker_id = speaker_id
        self._vad = vad if vad is not None else WebRtcVad()
        self._silence_end = _frames(silence_end_ms)
        self._max_frames = _frames(max_utterance_ms)
        self._min_speech = _frames(min_speech_ms)
        self._pre_roll: deque[bytes] = deque(maxlen=_frames(PRE_ROLL_MS))
        self._frames: list[bytes] = []
        self._speech_frames = 0
        self._silence_run = 0
        self._start_frame = 0
        self._frame_count = 0
        self._partial = b""

    @property
    def buffered_bytes(self) -> int:
        """Audio held right now (current utterance, pre-roll and a partial frame)."""
        held = sum(map(len, self._frames)) + sum(map(len, self._pre_roll))
        return held + len(self._partial)

    def feed(self, pcm16k: bytes) -> list[Utterance]:
        """Add the next chunk of this speaker's audio; returns the utterances it completes."""
        data = self._partial + pcm16k
        whole = len(data) - len(data) % STT_FRAME_BYTES
        self._partial = data[whole:]
        done: list[Utterance] = []
        for offset in range(0, whole, STT_FRAME_BYTES):
            utterance = self._feed_frame(data[offset : offset + STT_FRAME_BYTES])
            if utterance is not None:
                done.append(utterance)
        return done

    def flush(self) -> Utterance | None:
        """End the current utterance now (speaker left or went quiet); None if too short."""
        self._partial = b""
        self._pre_roll.clear()
        return self._finish()

    def _feed_frame(self, frame: bytes) -> Utterance | None:
        speech = self._vad.is_speech(frame)
        self._frame_count += 1
        if not self._frames:
            if not speech:
                self._pre_roll.append(frame)
                return None
            self._start_frame = self._frame_count - 1 - len(self._pre_roll)
            self._frames.extend(self._pre_roll)
            self._pre_roll.clear()
        self._frames.append(frame)
        if speech:
            self._speech_frames += 1
            self._silence_run = 0
        else:
            self._silence_run += 1
        if self._silence_run >= self._silence_end:
            return self._finish()
        if len(self._frames) >= self._max_frames:
            log.debug(
                "speaker %s: utterance cut at the %d ms cap",
                self.speaker_id,
                FRAME_MS * len(self._frames),
            )
            return self._finish()
        return None

    def _finish(self) -> Utterance | None:
        trailing = max(0, self._silence_run - _frames(TRAILING_KEEP_MS))
        kept = self._frames[: len(self._frames) - trailing]
        speech_frames = self._speech_frames
        self._frames = []
        self._speech_frames = 0
        self._silence_run = 0
        if speech_frames < self._min_speech:
            if kept:
                log.debug(
                    "speaker %s: dropped %d ms blip", self.speaker_id, FRAME_MS * speech_frames
                )
            return None
        pcm = b"".join(kept)
        start = self._start_frame * FRAME_MS / 1000
        return Utterance(self.speaker_id, start, pcm, duration(pcm))


class SpeakerSegmenters:
    """One :class:`Segmenter` per speaker, created on a speaker's first audio.

    ``vad_factory`` makes each speaker's own detector (WebRTC's keeps state between frames).
    """

    def __init__(self, vad_factory: Callable[[], VoiceActivityDetector] = WebRtcVad) -> None:
        self._vad_factory = vad_factory
        self._segmenters: dict[int, Segmenter] = {}

    def __len__(self) -> int:
        return len(self._segmenters)

    def feed(self, speaker_id: int, pcm16k: bytes) -> list[Utterance]:
        """Add a chunk of one speaker's 16 kHz mono audio; returns completed utterances."""
        segmenter = self._segmenters.get(speaker_id)
        if segmenter is None:
            segmenter = Segmenter(speaker_id, self._vad_factory())
            self._segmenters[speaker_id] = segmenter
        return segmenter.feed(pcm16k)

    def flush(self, speaker_id: int) -> Utterance | None:
        """End a speaker's current utterance and forget the speaker (e.g. they left)."""
        segmenter = self._segmenters.pop(speaker_id, None)
        return segmenter.flush() if segmenter is not None else None

    def flush_all(self) -> list[Utterance]:
        """End every speaker's current utterance (the bot leaves the channel)."""
        done = [self.flush(speaker_id) for speaker_id in list(self._segmenters)]
        return [utterance for utterance in done if utterance is not None]

    @property
    def buffered_bytes(self) -> int:
        """Audio held across all speakers."""
        return sum(segmenter.buffered_bytes for segmenter in self._segmenters.values())
