"""voice.audio (48 kHz stereo → 16 kHz mono) and voice.segmenter (utterances on silence)."""

from __future__ import annotations

from tests.machine import require_voice

require_voice()  # skips the module without the voice extra

import numpy as np
import pytest

from voice.audio import (
    STT_FRAME_BYTES,
    Downsampler,
    duration,
    frames,
    read_wav,
    stereo48k_to_mono16k,
    to_wav,
)
from voice.segmenter import (
    MAX_UTTERANCE_MS,
    Segmenter,
    SpeakerSegmenters,
    Utterance,
    WebRtcVad,
)

RATE_IN = 48_000
RATE_OUT = 16_000
SECOND_16K = RATE_OUT * 2  # bytes of 16 kHz mono s16le per second


def tone_48k_stereo(freq: float, seconds: float, amplitude: float = 8000.0) -> bytes:
    t = np.arange(int(RATE_IN * seconds)) / RATE_IN
    mono = amplitude * np.sin(2 * np.pi * freq * t)
    return np.repeat(mono, 2).astype("<i2").tobytes()


def rms(pcm: bytes, skip: int = 0) -> float:
    samples = np.frombuffer(pcm, dtype="<i2").astype(np.float64)[skip:]
    return float(np.sqrt(np.mean(samples**2)))


class LoudnessVad:
    """Deterministic test VAD: a frame is speech when its RMS is above a threshold."""

    def is_speech(self, frame: bytes) -> bool:
        return rms(frame) > 500


def noise(seconds: float, seed: int, amplitude: float = 3000.0) -> bytes:
    rng = np.random.default_rng(seed)
    samples = rng.normal(0, amplitude, int(RATE_OUT * seconds))
    return np.clip(samples, -32768, 32767).astype("<i2").tobytes()


def silence(seconds: float) -> bytes:
    return bytes(int(SECOND_16K * seconds))


def feed_frames(segmenter: Segmenter, pcm: bytes) -> list[Utterance]:
    done: list[Utterance] = []
    for frame in frames(pcm):
        done.extend(segmenter.feed(frame))
    return done


# --- resampling -----------------------------------------------------------------------------


def test_one_second_of_48k_stereo_becomes_one_second_of_16k_mono() -> None:
    out = stereo48k_to_mono16k(tone_48k_stereo(1000, 1.0))
    assert len(out) == SECOND_16K
    assert duration(out) == pytest.approx(1.0)


def test_1khz_tone_survives_and_7900hz_is_attenuated() -> None:
    amplitude = 8000.0
    kept = rms(stereo48k_to_mono16k(tone_48k_stereo(1000, 0.5, amplitude)), skip=200)
    cut = rms(stereo48k_to_mono16k(tone_48k_stereo(7900, 0.5, amplitude)), skip=200)
    expected = amplitude / np.sqrt(2)
    assert kept == pytest.approx(expected, rel=0.02)
    assert 20 * np.log10(cut / expected) < -40  # measured: about -80 dB


def test_channels_are_averaged() -> None:
    left = np.full(4800, 1000, dtype="<i2")
    right = np.full(4800, 3000, dtype="<i2")
    stereo = np.column_stack([left, right]).reshape(-1).tobytes()
    out = np.frombuffer(stereo48k_to_mono16k(stereo), dtype="<i2")
    assert np.all(np.abs(out[100:] - 2000) <= 1)


def test_streaming_in_odd_chunks_equals_one_shot() -> None:
    rng = np.random.default_rng(7)
    pcm = rng.integers(-20000, 20000, RATE_IN * 2, dtype=np.int16).astype("<i2").tobytes()
    downsampler = Downsampler()
    pieces = []
    offset = 0
    for size in [3840, 1001, 7, 3840, 12345, 2, 555]:
        pieces.append(downsampler.process(pcm[offset : offset + size]))
        offset += size
    pieces.append(downsampler.process(pcm[offset:]))
    assert b"".join(pieces) == stereo48k_to_mono16k(pcm)


def test_a_20ms_discord_packet_gives_a_20ms_frame() -> None:
    downsampler = Downsampler()
    for _ in range(5):
        assert len(downsampler.process(bytes(3840))) == STT_FRAME_BYTES


def test_wav_round_trip() -> None:
    pcm = noise(0.1, seed=1)
    assert read_wav(to_wav(pcm)) == (pcm, RATE_OUT, 1)


# --- segmenter rules --------------------------------------------------------------------------


def test_utterance_ends_after_700ms_of_silence() -> None:
    segmenter = Segmenter(1, LoudnessVad())
    assert feed_frames(segmenter, silence(0.5) + noise(1.0, seed=1) + silence(0.68)) == []
    [utterance] = feed_frames(segmenter, silence(0.02))
    assert utterance.speaker_id == 1
    # 200 ms pre-roll before the speech, 200 ms of the trailing silence kept
    assert utterance.start == pytest.approx(0.3)
    assert utterance.duration == pytest.approx(1.4)
    assert segmenter.buffered_bytes == 0


def test_pause_shorter_than_700ms_keeps_one_utterance() -> None:
    segmenter = Segmenter(1, LoudnessVad())
    pcm = noise(0.5, seed=1) + silence(0.6) + noise(0.5, seed=2) + silence(1.0)
    [utterance] = feed_frames(segmenter, pcm)
    assert utterance.duration == pytest.approx(1.8)


def test_utterance_is_cut_at_15s_and_a_new_one_starts() -> None:
    segmenter = Segmenter(1, LoudnessVad())
    done = feed_frames(segmenter, noise(20.0, seed=3) + silence(1.0))
    assert [u.duration for u in done] == pytest.approx([15.0, 5.2])
    assert [u.start for u in done] == pytest.approx([0.0, 15.0])
    assert len(done[0].pcm) == MAX_UTTERANCE_MS // 1000 * SECOND_16K


def test_less_than_300ms_of_speech_is_ignored() -> None:
    segmenter = Segmenter(1, LoudnessVad())
    pcm = silence(0.3) + noise(0.28, seed=4) + silence(1.0)
    assert feed_frames(segmenter, pcm) == []
    assert segmenter.flush() is None
    [kept] = feed_frames(segmenter, noise(0.3, seed=5) + silence(1.0))
    assert kept.duration == pytest.approx(0.5)  # no pre-roll right after a flush


def test_flush_ends_the_current_utterance() -> None:
    segmenter = Segmenter(1, LoudnessVad())
    assert feed_frames(segmenter, noise(1.0, seed=6)) == []
    utterance = segmenter.flush()
    assert utterance is not None
    assert utterance.duration == pytest.approx(1.0)
    assert segmenter.flush() is None


def test_chunks_of_any_size_are_reframed() -> None:
    segmenter = Segmenter(1, LoudnessVad())
    pcm = noise(1.0, seed=8) + silence(1.0)
    done = [
        u for offset in range(0, len(pcm), 999) for u in segmenter.feed(pcm[offset : offset + 999])
    ]
    assert [u.pcm for u in done] == [p.pcm for p in feed_frames(Segmenter(1, LoudnessVad()), pcm)]


@pytest.mark.slow
def test_memory_stays_bounded_over_ten_minutes() -> None:
    """10 minutes of speech-like bursts (0.2-20 s) and pauses: never more than 15 s held."""
    segmenter = Segmenter(1, WebRtcVad())
    rng = np.random.default_rng(9)
    cap = MAX_UTTERANCE_MS // 1000 * SECOND_16K + STT_FRAME_BYTES
    fed = 0.0
    peak = 0
    utterances: list[Utterance] = []
    while fed < 600:
        burst = float(rng.choice([0.2, 1.5, 4.0, 20.0]))
        pause = float(rng.choice([0.3, 0.9, 2.0]))
        for frame in frames(speech_like(burst, rng) + silence(pause)):
            utterances.extend(segmenter.feed(frame))
            peak = max(peak, segmenter.buffered_bytes)
        fed += burst + pause
    assert peak <= cap
    assert peak >= cap - 2 * STT_FRAME_BYTES  # the 20 s bursts did reach the cap
    assert utterances
    assert all(u.duration <= 15.0 for u in utterances)


def speech_like(seconds: float, rng: np.random.Generator) -> bytes:
    """Noise shaped like speech: low-passed, with a 4 Hz syllable envelope."""
    n = int(RATE_OUT * seconds)
    white = rng.normal(0, 1, n)
    shaped = np.convolve(white, np.ones(8) / 8, mode="same")
    envelope = 0.6 + 0.4 * np.sin(2 * np.pi * 4 * np.arange(n) / RATE_OUT)
    return np.clip(6000 * shaped * envelope * 2.8, -32768, 32767).astype("<i2").tobytes()


def test_overlapping_speakers_stay_apart() -> None:
    speakers = SpeakerSegmenters(LoudnessVad)
    alice = noise(1.0, seed=10) + silence(1.0)
    bob = silence(0.4) + noise(1.2, seed=11) + silence(1.0)
    done: list[Utterance] = []
    alice_frames, bob_frames = list(frames(alice)), list(frames(bob))
    for index in range(max(len(alice_frames), len(bob_frames))):
        if index < len(alice_frames):
            done.extend(speakers.feed(111, alice_frames[index]))
        if index < len(bob_frames):
            done.extend(speakers.feed(222, bob_frames[index]))
    by_speaker = {u.speaker_id: u for u in done}
    assert len(done) == 2
    assert by_speaker[111].pcm == alice[: len(by_speaker[111].pcm)]
    assert noise(1.0, seed=10) in by_speaker[111].pcm
    assert noise(1.2, seed=11) in by_speaker[222].pcm
    assert by_speaker[222].start == pytest.approx(0.2)
    assert len(speakers) == 2
    assert speakers.flush_all() == []
    assert len(speakers) == 0
