"""Decoded voice packets → utterances, per speaker, safe to feed from any thread.

discord-ext-voice-recv hands each speaker's decoded audio (48 kHz stereo s16le, 20 ms per
packet) to a sink on its packet-router thread. :class:`UtteranceCollector` resamples it to
16 kHz mono and segments it per speaker (:mod:`voice.segmenter`), and hands every finished
utterance to a callback.

Discord sends nothing while someone is silent (a few silence frames, then no packets), so the
collector keeps time itself:

- a packet that arrives after a pause is preceded by that much silence, so the segmenter
  counts the pause (a 500 ms breath stays inside the utterance, 700 ms ends it). The pause
  is read from the packets' RTP timestamps, which advance with the speaker's clock through
  silence; only without them is it the time between arrivals (which a busy machine skews);
- :meth:`UtteranceCollector.tick`, called a few times a second, ends the utterance of a
  speaker who has sent nothing for ``quiet_after`` seconds (1 s: the 700 ms rule plus slack
  for packets held up on the way) and forgets the speaker.

Each speaker's stream restarts after that, and its wall-clock start is the time its first
packet arrived, so :attr:`SpokenUtterance.at` is when the utterance began.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from voice.audio import DISCORD_CHANNELS, DISCORD_RATE, FRAME_MS, SAMPLE_WIDTH, Downsampler
from voice.segmenter import (
    SILENCE_END_MS,
    Segmenter,
    Utterance,
    VoiceActivityDetector,
    WebRtcVad,
)

log = logging.getLogger(__name__)

PACKET_SECONDS = FRAME_MS / 1000
QUIET_AFTER = 1.0
"""Seconds without packets after which :meth:`UtteranceCollector.tick` ends an utterance."""
RTP_CLOCK = DISCORD_RATE
"""RTP timestamp units per second (Opus: 48 kHz)."""
_PACKET_TICKS = RTP_CLOCK * FRAME_MS // 1000
_MAX_PAUSE = SILENCE_END_MS / 1000 + PACKET_SECONDS
"""The longest pause worth padding: anything longer ends the utterance just the same."""
_BYTES_PER_SECOND_48K = DISCORD_RATE * DISCORD_CHANNELS * SAMPLE_WIDTH
_FRAME_BYTES_48K = _BYTES_PER_SECOND_48K * FRAME_MS // 1000


@dataclass(frozen=True, slots=True)
class SpokenUtterance:
    """One finished utterance, with the wall-clock time its speaker's stream started."""

    speaker_id: int
    utterance: Utterance
    stream_started: datetime

    @property
    def at(self) -> datetime:
        """When the utterance began (wall clock, UTC)."""
        return self.stream_started + timedelta(seconds=self.utterance.start)


@dataclass(slots=True)
class _Speaker:
    segmenter: Segmenter
    started: datetime
    last_packet: float
    last_timestamp: int | None
    downsampler: Downsampler = field(default_factory=Downsampler)

    def pause(self, arrived: float, timestamp: int | None) -> float:
        """Seconds of silence between the previous packet and one that arrives now."""
        if timestamp is not None and self.last_timestamp is not None:
            ticks = (timestamp - self.last_timestamp) % 2**32 - _PACKET_TICKS
            return ticks / RTP_CLOCK if ticks < 2**31 else 0.0  # a reordered packet: none
        return arrived - self.last_packet - 2 * PACKET_SECONDS  # a packet's worth of jitter


class UtteranceCollector:
    """Per-speaker resampling and segmentation; finished utterances go to ``emit``.

    Every method may be called from any thread. ``emit`` is called on the calling thread,
    outside the collector's lock; it must be quick (hand the utterance to an event loop).
    """

    def __init__(
        self,
        emit: Callable[[SpokenUtterance], None],
        *,
        vad_factory: Callable[[], VoiceActivityDetector] = WebRtcVad,
        quiet_after: float = QUIET_AFTER,
        clock: Callable[[], float] = time.monotonic,
        now: Callable[[], datetime] = lambda: datetime.now(UTC),
    ) -> None:
        self._emit = emit
        self._vad_factory = vad_factory
        self._quiet_after = quiet_after
        self._clock = clock
        self._now = now
        self._speakers: dict[int, _Speaker] = {}
        self._lock = threading.Lock()
        self._closed = False

    def push(self, speaker_id: int, pcm48k_stereo: bytes, timestamp: int | None = None) -> None:
        """One packet of a speaker's decoded audio (48 kHz stereo s16le), with its RTP
        timestamp when there is one."""
        done: list[SpokenUtterance] = []
        with self._lock:
            if self._closed:
                return
            now = self._clock()
            speaker = self._speakers.get(speaker_id)
            if speaker is None:
                segmenter = Segmenter(speaker_id, self._vad_factory())
                speaker = _Speaker(segmenter, self._now(), now, timestamp)
                self._speakers[speaker_id] = speaker
            pause = speaker.pause(now, timestamp)
            speaker.last_packet, speaker.last_timestamp = now, timestamp
            if pause >= PACKET_SECONDS:  # the speaker paused: that much silence, up to 720 ms
                frames = round(min(pause, _MAX_PAUSE) / PACKET_SECONDS)
                silence = speaker.downsampler.process(bytes(frames * _FRAME_BYTES_48K))
                done += self._feed(speaker, silence)
                # time not fed as silence still passed: what follows starts that much later
                speaker.started += timedelta(seconds=max(0.0, pause - frames * PACKET_SECONDS))
            done += self._feed(speaker, speaker.downsampler.process(pcm48k_stereo))
        self._hand_over(done)

    def tick(self) -> None:
        """End the utterances of speakers who have sent nothing for ``quiet_after`` seconds."""
        done: list[SpokenUtterance] = []
        with self._lock:
            now = self._clock()
            quiet = [
                speaker_id
                for speaker_id, speaker in self._speakers.items()
                if now - speaker.last_packet >= self._quiet_after
            ]
            for speaker_id in quiet:
                done.extend(self._end(speaker_id))
        self._hand_over(done)

    def end_speaker(self, speaker_id: int) -> None:
        """End a speaker's current utterance now (they left the channel)."""
        with self._lock:
            done = self._end(speaker_id)
        self._hand_over(done)

    def close(self) -> None:
        """End every speaker's utterance; later packets are ignored. Idempotent."""
        done: list[SpokenUtterance] = []
        with self._lock:
            self._closed = True
            for speaker_id in list(self._speakers):
                done.extend(self._end(speaker_id))
        self._hand_over(done)

    @property
    def speakers(self) -> int:
        """Speakers with an open stream."""
        with self._lock:
            return len(self._speakers)

    @property
    def buffered_bytes(self) -> int:
        """Audio held across all speakers (bounded: at most one utterance cap each)."""
        with self._lock:
            return sum(s.segmenter.buffered_bytes for s in self._speakers.values())

    @staticmethod
    def _feed(speaker: _Speaker, pcm16k: bytes) -> list[SpokenUtterance]:
        return [
            SpokenUtterance(speaker.segmenter.speaker_id, utterance, speaker.started)
            for utterance in speaker.segmenter.feed(pcm16k)
        ]

    def _end(self, speaker_id: int) -> list[SpokenUtterance]:
        speaker = self._speakers.pop(speaker_id, None)
        if speaker is None:
            return []
        utterance = speaker.segmenter.flush()
        if utterance is None:
            return []
        return [SpokenUtterance(speaker_id, utterance, speaker.started)]

    def _hand_over(self, done: list[SpokenUtterance]) -> None:
        for spoken in done:
            try:
                self._emit(spoken)
            except Exception:  # a consumer's bug must not kill the packet thread
                log.exception("handing over an utterance of speaker %s failed", spoken.speaker_id)
