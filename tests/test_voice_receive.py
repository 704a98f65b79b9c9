"""voice.receive, voice.wake and voice.availability, with real components throughout.

- :class:`voice.receive.UtteranceCollector` is fed 20 ms Discord packets (48 kHz stereo) of the
  espeak fixtures through the real downsampler, WebRTC VAD and segmenter, on a fake monotonic
  clock (and with or without RTP timestamps), so the pauses Discord leaves and ``tick()``'s
  quiet timeout are deterministic: when an utterance ends, pauses padded with silence,
  wall-clock times, speakers kept apart (checked with pocketsphinx), silence and hiss dropped,
  bounded memory over a 10-minute call, ``close``/``end_speaker``, a failing consumer, and
  pushes from several threads;
- :func:`voice.wake.addresses`: the bot's name said as words, joined, split or hyphenated;
- :func:`voice.availability.missing_voice_parts` / ``voice_unavailable`` with this install and
  with one package blocked.
"""

from __future__ import annotations

from tests.machine import require_voice

require_voice(opus=True)  # skips the module without the voice extra and libopus

import functools
import logging
import sys
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime, timedelta

import numpy as np
import pytest

from tests.test_voice_stt import DISCORD_PACKET, ROBUST_WORDS, fixture_pcm, to_discord
from voice.audio import to_s16le
from voice.availability import ENABLE_VOICE, missing_voice_parts, voice_unavailable
from voice.receive import QUIET_AFTER, SpokenUtterance, UtteranceCollector
from voice.stt import PocketSphinxTranscriber
from voice.wake import addresses

PACKET = 0.02  # seconds of audio in one Discord packet
T0 = 1000.0  # the fake monotonic clock's start
START = datetime(2024, 5, 1, 12, 0, tzinfo=UTC)  # the wall clock at T0
STT_BYTES_PER_SECOND = 16_000 * 2
CAP_BYTES = 15 * STT_BYTES_PER_SECOND + 640  # 15 s cap + at most one partial 20 ms frame
SILENT_PACKET = bytes(DISCORD_PACKET)  # Discord sends five of these when someone stops talking
RTP_TICKS = 960  # RTP timestamp units (48 kHz) per packet
RTP_BASE = 2**32 - 60 * RTP_TICKS  # timestamps wrap around 1.2 s into a call

Slot = bytes | None
"""What a speaker sends in one 20 ms slot: a packet, or nothing (Discord sends nothing)."""


# --- helpers -------------------------------------------------------------------------------------


class FakeClock:
    """Monotonic seconds that move only when the test moves them; ``wall`` follows along."""

    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> float:
        return self.now

    def wall(self) -> datetime:
        return START + timedelta(seconds=self.now - T0)


@functools.cache
def spoken(name: str) -> tuple[bytes, ...]:
    """An espeak fixture as whole Discord packets (the last one padded with silence)."""
    pcm = to_discord(fixture_pcm(name))
    pcm += bytes(-len(pcm) % DISCORD_PACKET)
    return tuple(pcm[i : i + DISCORD_PACKET] for i in range(0, len(pcm), DISCORD_PACKET))


def as_packets(pcm16k: bytes) -> list[bytes]:
    pcm = to_discord(pcm16k)
    return [pcm[i : i + DISCORD_PACKET] for i in range(0, len(pcm), DISCORD_PACKET)]


class Call:
    """A collector on a fake clock, and what it emitted."""

    def __init__(
        self,
        emit: Callable[[SpokenUtterance], None] | None = None,
        *,
        rtp: bool = False,
        quiet_after: float | None = None,
    ) -> None:
        self.clock = FakeClock()
        self.heard: list[SpokenUtterance] = []
        self.rtp = rtp
        self.rounds = 0
        emit = emit or self.heard.append
        if quiet_after is None:  # the default
            self.collector = UtteranceCollector(emit, clock=self.clock, now=self.clock.wall)
        else:
            self.collector = UtteranceCollector(
                emit, quiet_after=quiet_after, clock=self.clock, now=self.clock.wall
            )

    def timestamp(self) -> int | None:
        """The RTP timestamp of a packet sent in this round (with ``rtp``), else None."""
        return (RTP_BASE + self.rounds * RTP_TICKS) % 2**32 if self.rtp else None

    def play(
        self,
        streams: Mapping[int, Sequence[Slot]],
        *,
        tick_every: int = 5,
        on_round: Callable[[int], None] | None = None,
    ) -> None:
        """Each 20 ms round: every speaker's slot is pushed, then the clock moves 20 ms;
        ``tick()`` every ``tick_every`` rounds (100 ms, as the voice session does), 0: never."""
        for i in range(max(map(len, streams.values()))):
            for speaker_id, slots in streams.items():
                if i < len(slots) and (packet := slots[i]) is not None:
                    self.collector.push(speaker_id, packet, self.timestamp())
            self.clock.now += PACKET
            self.rounds += 1
            if tick_every and (i + 1) % tick_every == 0:
                self.collector.tick()
            if on_round is not None:
                on_round(i)

    def quiet(self, seconds: float) -> None:
        """Nobody sends anything for ``seconds``; tick every 100 ms."""
        self.play({0: [None] * round(seconds / PACKET)})

    def fall_silent(self) -> None:
        """Nobody sends anything for long enough that ``tick()`` ends every utterance."""
        self.quiet(QUIET_AFTER + 0.5)

    def of(self, speaker_id: int) -> list[SpokenUtterance]:
        return [heard for heard in self.heard if heard.speaker_id == speaker_id]


def nothing(rounds: int) -> list[Slot]:
    return [None] * rounds


def longest_zero_run(pcm: bytes) -> float:
    """Seconds of the longest run of exactly-zero samples in 16 kHz mono PCM."""
    is_zero = np.concatenate([[0], np.frombuffer(pcm, dtype="<i2") == 0, [0]]).astype(np.int8)
    edges = np.flatnonzero(np.diff(is_zero))
    runs = edges[1::2] - edges[::2]
    return float(runs.max(initial=0)) / 16_000


@pytest.fixture(scope="module")
def sphinx() -> PocketSphinxTranscriber:
    return PocketSphinxTranscriber()


# --- voice.receive: when an utterance ends -------------------------------------------------------


@pytest.mark.parametrize("quiet_after", [None, 0.7, 2.5], ids=["default", "0.7", "2.5"])
def test_tick_ends_an_utterance_only_after_quiet_after(quiet_after: float | None) -> None:
    call = Call(quiet_after=quiet_after)
    quiet_after = quiet_after or QUIET_AFTER
    leading_silence = [SILENT_PACKET] * 25  # 500 ms
    call.play({7: [*leading_silence, *spoken("sarah")]}, tick_every=1)
    assert call.heard == []
    last_packet = call.clock.now - PACKET
    for fraction in (0.1, 0.5, 0.9, 0.99):
        call.clock.now = last_packet + fraction * quiet_after
        call.collector.tick()
        assert call.heard == [], fraction
    assert call.collector.speakers == 1
    call.clock.now = last_packet + quiet_after + 0.01
    call.collector.tick()
    [heard] = call.heard
    call.clock.now += 5
    call.collector.tick()
    assert call.heard == [heard]
    assert call.collector.speakers == 0
    assert call.collector.buffered_bytes == 0

    assert heard.speaker_id == 7
    assert heard.utterance.speaker_id == 7
    assert heard.stream_started == START  # now() at the first packet, not at the tick
    assert heard.utterance.start == pytest.approx(0.3, abs=0.021)  # 500 ms - 200 ms pre-roll
    assert heard.at == START + timedelta(seconds=heard.utterance.start)
    assert heard.at > heard.stream_started
    speech = len(fixture_pcm("sarah")) / STT_BYTES_PER_SECOND
    assert speech - 0.3 < heard.utterance.duration < speech + 0.25


def test_one_tick_ends_every_quiet_speaker_and_only_those() -> None:
    names = ("sarah", "tom", "anna")
    length = max(len(spoken(name)) for name in names)
    streams: dict[int, Sequence[Slot]] = {
        speaker_id: [*spoken(name), *[SILENT_PACKET] * (length - len(spoken(name)))]
        for speaker_id, name in enumerate(names, start=1)
    }  # three speakers stop at the same moment...
    talk_on = length + round(QUIET_AFTER / PACKET)
    streams[4] = [*spoken("tom"), *spoken("sarah")][:talk_on]  # ...a fourth talks on
    assert len(streams[4]) == talk_on
    call = Call()
    call.play(streams, tick_every=0)
    call.collector.tick()
    assert sorted(heard.speaker_id for heard in call.heard) == [1, 2, 3]
    assert call.collector.speakers == 1
    call.fall_silent()
    assert sorted(heard.speaker_id for heard in call.heard) == [1, 2, 3, 4]


def test_a_new_stream_after_the_quiet_starts_at_its_first_packet() -> None:
    call = Call()
    call.play({7: spoken("tom")})
    call.quiet(QUIET_AFTER + 1)
    second_start = call.clock.wall()
    call.play({7: spoken("anna")})
    call.fall_silent()
    first, second = call.heard
    assert first.stream_started == START
    assert second.stream_started == second_start
    assert second.at == second_start


@pytest.mark.parametrize(
    ("pause", "rtp"),
    [
        (0.2, True),
        (0.3, True),
        (0.5, True),
        (0.58, True),
        (0.2, False),
        (0.3, False),
        (0.5, False),
        (0.58, False),
    ],
    ids=lambda value: {True: "rtp", False: "arrival"}.get(value, str(value)),
)
def test_a_pause_in_packets_is_silence_inside_the_utterance(pause: float, rtp: bool) -> None:
    packets = spoken("sarah")
    middle = 100  # 2 s in, inside a stretch the VAD calls speech on both sides
    whole, paused = Call(rtp=rtp), Call(rtp=rtp)
    whole.play({1: packets})
    paused.play({1: [*packets[:middle], *nothing(round(pause / PACKET)), *packets[middle:]]})
    whole.collector.close()
    paused.collector.close()
    [reference] = whole.heard
    [heard] = paused.heard
    added = heard.utterance.duration - reference.utterance.duration
    if rtp:  # the timestamps say exactly how long the pause was
        assert added == pytest.approx(pause, abs=0.001)
    else:  # arrival times: a packet's worth of jitter is not counted as pause
        assert pause - 0.045 <= added <= pause - 0.015
    assert longest_zero_run(reference.utterance.pcm) < 0.05
    assert longest_zero_run(heard.utterance.pcm) == pytest.approx(added, abs=0.005)
    zeros = heard.utterance.pcm.find(bytes(int(0.1 * STT_BYTES_PER_SECOND)))
    assert zeros / STT_BYTES_PER_SECOND == pytest.approx(middle * PACKET, abs=0.01)


@pytest.mark.parametrize("rtp", [True, False], ids=["rtp", "arrival"])
@pytest.mark.parametrize(("pause", "utterances"), [(0.5, 1), (1.0, 2), (5.0, 2)])
def test_a_long_pause_ends_the_utterance_without_tick(
    pause: float, utterances: int, rtp: bool
) -> None:
    """Speech cut off mid-sentence, Discord's five silence frames, then no packets."""
    packets = spoken("sarah")
    stopped = [*packets[:100], *[SILENT_PACKET] * 5, *nothing(round(pause / PACKET))]
    call = Call(rtp=rtp)
    call.play({1: [*stopped, *packets[100:]]}, tick_every=0)
    assert len(call.heard) == utterances - 1  # the padded silence ended it, inside push()
    call.collector.close()
    assert len(call.heard) == utterances
    if utterances == 2:
        first, second = call.heard
        assert 2.1 <= first.utterance.duration <= 2.4  # 2 s of speech + 200 ms kept silence
        assert second.utterance.start > first.utterance.start + first.utterance.duration


@pytest.mark.parametrize("rtp", [True, False], ids=["rtp", "arrival"])
def test_utterances_after_pauses_keep_their_wall_clock_time(rtp: bool) -> None:
    call = Call(rtp=rtp)
    said: list[datetime] = []
    stream: list[Slot] = []
    for name in ("sarah", "tom", "anna", "sarah", "tom"):
        said.append(START + timedelta(seconds=len(stream) * PACKET))
        stream += [*spoken(name), *nothing(45)]  # a 0.9 s pause: shorter than QUIET_AFTER
    call.play({1: stream})  # tick() every 100 ms, as the voice session does
    call.fall_silent()
    assert len(call.heard) == len(said)
    for pauses, (heard, when) in enumerate(zip(call.heard, said, strict=True)):
        # (an utterance begins with up to 200 ms of the audio before its speech; arrival
        # times leave a packet's worth of jitter per pause uncounted)
        early = 0.25 if rtp else 0.25 + 0.02 * pauses
        assert when - timedelta(seconds=early) <= heard.at <= when, (heard.at - when, when)


# --- voice.receive: speakers, silence, memory ---------------------------------------------------


@pytest.mark.slow
async def test_interleaved_speakers_are_kept_apart(sphinx: PocketSphinxTranscriber) -> None:
    call = Call()
    call.play({1: spoken("sarah"), 2: [*nothing(50), *spoken("tom")]})  # tom starts 1 s later
    call.fall_silent()
    assert sorted(heard.speaker_id for heard in call.heard) == [1, 2]
    [sarah] = call.of(1)
    [tom] = call.of(2)
    assert sarah.at == START
    assert tom.at == START + timedelta(seconds=1)
    sarah_words = set((await sphinx.transcribe(sarah.utterance.pcm)).split())
    tom_words = set((await sphinx.transcribe(tom.utterance.pcm)).split())
    assert ROBUST_WORDS["sarah"] <= sarah_words, sarah_words
    assert ROBUST_WORDS["tom"] <= tom_words, tom_words
    assert not ROBUST_WORDS["tom"] & sarah_words, sarah_words
    assert not ROBUST_WORDS["sarah"] & tom_words, tom_words


def hiss(seconds: float) -> bytes:
    """Gaussian noise at about -64 dBFS (sd 20)."""
    rng = np.random.default_rng(5)
    return rng.normal(0, 20, int(16_000 * seconds)).astype("<i2").tobytes()


def hum(seconds: float) -> bytes:
    """A 100 Hz hum at amplitude 50."""
    t = np.arange(int(16_000 * seconds)) / 16_000
    return to_s16le(50 * np.sin(2 * np.pi * 100 * t))


@pytest.mark.parametrize(
    "pcm16k",
    [bytes(16_000 * 2 * 5), hiss(5), hum(5)],
    ids=["silence", "hiss", "hum"],
)
def test_silence_and_faint_noise_give_nothing(pcm16k: bytes) -> None:
    call = Call()
    packets = as_packets(pcm16k)
    call.play({1: packets, 2: [*packets[:100], *nothing(50), *packets[100:]]})
    call.fall_silent()
    assert call.collector.speakers == 0
    call.play({1: packets[:50]})
    call.collector.close()
    assert call.heard == []
    assert call.collector.buffered_bytes == 0


@pytest.mark.slow
def test_ten_minute_call_keeps_memory_bounded() -> None:
    """A talker says a sentence every ~13 s for 10 minutes (nothing sent between sentences);
    meanwhile someone else talks without a break for the first two minutes and ten seconds."""
    rounds = 10 * 60 * 50
    talker: list[Slot] = []
    said_at: list[datetime] = []
    names = ("sarah", "tom", "anna")
    while len(talker) < rounds - 250:
        said_at.append(START + timedelta(seconds=len(talker) * PACKET))
        talker += [*spoken(names[len(said_at) % 3]), *nothing(500)]
    ramble = [*spoken("sarah"), *spoken("tom"), *spoken("anna")]
    nonstop = (ramble * (130 * 50 // len(ramble) + 1))[: 130 * 50]
    call = Call()
    peak = 0

    def sample(i: int) -> None:
        nonlocal peak
        if i % 10 == 0:
            held = call.collector.buffered_bytes
            assert held <= call.collector.speakers * CAP_BYTES, (i, held)
            peak = max(peak, held)

    began = time.perf_counter()
    call.play({1: talker, 2: nonstop}, on_round=sample)
    call.fall_silent()
    took = time.perf_counter() - began
    assert call.collector.speakers == 0
    assert peak > 14 * STT_BYTES_PER_SECOND  # the nonstop talker did fill an utterance

    talks = call.of(1)
    assert [heard.at for heard in talks] == said_at  # one per sentence, no drift
    assert all(2.5 < heard.utterance.duration < 4.0 for heard in talks)

    rambles = call.of(2)
    durations = [heard.utterance.duration for heard in rambles]
    assert len(rambles) == 9, durations  # 130 s: eight cut at the 15 s cap, then the rest
    assert max(durations) <= 15.0
    assert min(durations[:-1]) >= 14.9, durations  # (a cut in a pause drops its trailing part)
    assert sum(durations) == pytest.approx(130, abs=0.2)  # cut, not lost
    for k, heard in enumerate(rambles):
        assert heard.at == START + timedelta(seconds=15 * k)
    assert took < 10, f"{took:.1f} s"


# --- voice.receive: close, end_speaker, failing consumers, threads -------------------------------


def test_close_flushes_once_and_ignores_later_packets() -> None:
    call = Call()
    call.play({1: spoken("sarah"), 2: spoken("tom")}, tick_every=0)
    assert call.heard == []
    assert call.collector.speakers == 2
    assert call.collector.buffered_bytes > 2 * STT_BYTES_PER_SECOND
    call.collector.close()
    assert sorted(heard.speaker_id for heard in call.heard) == [1, 2]
    assert call.collector.speakers == 0
    assert call.collector.buffered_bytes == 0
    call.collector.close()
    call.play({1: spoken("anna"), 3: spoken("anna")})
    assert call.collector.speakers == 0
    assert call.collector.buffered_bytes == 0
    call.quiet(2.0)
    call.collector.end_speaker(1)
    call.collector.close()
    assert len(call.heard) == 2
    assert call.collector.speakers == 0
    assert call.collector.buffered_bytes == 0


def test_end_speaker_flushes_that_speaker_only() -> None:
    call = Call()
    call.play({1: spoken("sarah"), 2: spoken("tom")}, tick_every=0)
    call.collector.end_speaker(1)
    [sarah] = call.heard
    assert sarah.speaker_id == 1
    assert call.collector.speakers == 1
    call.collector.end_speaker(99)  # never spoke
    call.collector.end_speaker(1)  # already ended
    assert call.heard == [sarah]
    resumed = call.clock.wall()
    call.play({1: spoken("anna"), 2: spoken("anna")})
    call.fall_silent()
    assert [heard.speaker_id for heard in call.heard] == [1, 2, 1]
    assert call.of(1)[1].stream_started == resumed  # a new stream
    assert call.of(2)[0].stream_started == START  # tom's stream went on
    assert call.of(2)[0].utterance.duration > 6  # tom and anna, one utterance


def test_a_failing_consumer_does_not_stop_the_collector(caplog: pytest.LogCaptureFixture) -> None:
    tried: list[SpokenUtterance] = []

    def emit(utterance: SpokenUtterance) -> None:
        tried.append(utterance)
        raise RuntimeError("consumer bug")

    call = Call(emit)
    with caplog.at_level(logging.ERROR, logger="voice.receive"):
        call.play({1: [*spoken("sarah"), *[SILENT_PACKET] * 40]})  # ends inside push()
        assert len(tried) == 1
        call.play({1: spoken("tom")})
        call.fall_silent()  # ends inside tick()
        assert len(tried) == 2
        call.play({1: spoken("anna")})
        call.collector.close()  # ends inside close()
    assert len(tried) == 3
    errors = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert len(errors) == 3
    assert all(r.exc_info and r.exc_info[0] is RuntimeError for r in errors)


def threaded_streams() -> dict[int, list[Slot]]:
    one = [*spoken("sarah"), *nothing(60), *spoken("anna")]
    two = [*nothing(20), *spoken("tom"), *[SILENT_PACKET] * 20, *spoken("sarah")]
    length = max(len(one), len(two)) + 60
    return {1: one + nothing(length - len(one)), 2: two + nothing(length - len(two))}


def test_pushing_from_threads_in_lockstep_matches_sequential_pushing() -> None:
    streams = threaded_streams()
    sequential = Call()
    sequential.play(streams, tick_every=1)

    threaded = Call()

    def next_round() -> None:
        threaded.clock.now += PACKET
        threaded.collector.tick()

    barrier = threading.Barrier(len(streams), action=next_round)
    failures: list[BaseException] = []

    def speak(speaker_id: int, slots: Sequence[Slot]) -> None:
        try:
            for packet in slots:
                if packet is not None:
                    threaded.collector.push(speaker_id, packet)
                barrier.wait(timeout=10)
        except BaseException as error:
            failures.append(error)
            barrier.abort()

    threads = [threading.Thread(target=speak, args=item) for item in streams.items()]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert failures == []
    assert len(sequential.of(1)) == len(sequential.of(2)) == 2
    for speaker_id in streams:
        assert threaded.of(speaker_id) == sequential.of(speaker_id)


def test_pushing_from_threads_freely_matches_sequential_pushing() -> None:
    """No clock movement at all: both threads push as fast as they can, then close()."""
    streams = {
        1: [*spoken("sarah"), *[SILENT_PACKET] * 40, *spoken("anna")],
        2: [*spoken("tom"), *[SILENT_PACKET] * 40, *spoken("sarah")],
    }
    sequential = Call()
    for speaker_id, slots in streams.items():
        for packet in slots:
            assert packet is not None
            sequential.collector.push(speaker_id, packet)
    sequential.collector.close()

    threaded = Call()
    go = threading.Event()

    def speak(speaker_id: int, slots: Sequence[Slot]) -> None:
        go.wait(timeout=10)
        for packet in slots:
            assert packet is not None
            threaded.collector.push(speaker_id, packet)

    threads = [threading.Thread(target=speak, args=item) for item in streams.items()]
    for thread in threads:
        thread.start()
    go.set()
    for thread in threads:
        thread.join(timeout=30)
    threaded.collector.close()
    assert len(sequential.of(1)) == len(sequential.of(2)) == 2
    for speaker_id in streams:
        assert threaded.of(speaker_id) == sequential.of(speaker_id)


# --- voice.wake ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("transcript", "names", "expected"),
    [
        ("hey memorybot what does sarah do", ["memorybot"], True),
        ("memory bot, who has a dog", ["memorybot"], True),
        ("Memory-Bot?", ["memorybot"], True),
        ("MEMORYBOT", ["MemoryBot"], True),
        ("ok memo ry bot", ["memorybot"], True),  # three words written together
        ("remember the bot", ["memorybot"], False),
        ("the memorybots are here", ["memorybot"], False),
        ("memory and bot", ["memorybot"], False),
        ("what does sarah do", ["memorybot"], False),
        ("", ["memorybot"], False),
        ("hey memo bot", ["Memo Bot"], True),
        ("memo-bot, who plays guitar", ["Memo Bot"], True),
        ("bot memo", ["Memo Bot"], False),
        ("memo the bot", ["Memo Bot"], False),
        ("ask the botanist", ["bot"], False),
        ("a robot", ["bot"], False),
        ("hey bot", ["bot"], True),
        ("hey memorybot", ["", "  ", "?!"], False),
        ("hey", ["", "hey"], True),
        ("hey memorybot", [], False),
        ("hey max", ["memorybot", "Max"], True),
    ],
)
def test_addresses(transcript: str, names: list[str], expected: bool) -> None:
    assert addresses(transcript, names) is expected
    assert addresses(transcript, iter(names)) is expected


def test_addresses_a_spaced_name_said_as_one_word() -> None:
    assert addresses("hey memobot", ["Memo Bot"])


# --- voice.availability --------------------------------------------------------------------------


def test_this_install_has_everything_voice_needs() -> None:
    for stt_model in ("local", "whisper-1"):
        assert missing_voice_parts(stt_model) == []
        assert voice_unavailable(stt_model) is None
    assert missing_voice_parts() == []
    assert voice_unavailable() is None


@pytest.mark.parametrize(
    ("module", "distribution"),
    [
        ("discord.ext.voice_recv", "discord-ext-voice-recv"),
        ("nacl", "PyNaCl"),
        ("davey", "davey"),
        ("webrtcvad", "webrtcvad-wheels"),
    ],
)
@pytest.mark.parametrize("stt_model", ["local", "whisper-1"])
def test_a_missing_package_is_named_with_the_fix(
    module: str, distribution: str, stt_model: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, module, None)
    assert missing_voice_parts(stt_model) == [distribution]
    message = voice_unavailable(stt_model)
    assert message is not None
    assert distribution in message
    assert "pip install -e '.[voice]'" in message
    assert f"`{ENABLE_VOICE}`" in message
    assert "apt-get" not in message


def test_pocketsphinx_is_needed_only_for_local_speech_to_text(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "pocketsphinx", None)
    assert missing_voice_parts("local") == ["pocketsphinx"]
    message = voice_unavailable("local")
    assert message is not None
    assert "pocketsphinx" in message
    assert "pip install -e '.[voice]'" in message
    assert missing_voice_parts("whisper-1") == []
    assert voice_unavailable("whisper-1") is None


# --- voice.sink.DaveFrames ----------------------------------------------------------------------


class _State:
    """What DaveFrames reads of a voice connection (``_connection``)."""

    def __init__(self, session: object, version: int) -> None:
        self.dave_session = session
        self.dave_protocol_version = version


class _Client:
    def __init__(self, state: _State | None) -> None:
        if state is not None:
            self._connection = state


class _ReadySession:
    """A DAVE session past the MLS handshake (which needs Discord's voice server): opens
    frames by stripping a prefix, refuses the rest the way davey does (ValueError)."""

    ready = True

    def decrypt(self, user_id: int, media: object, frame: bytes) -> bytes:
        import davey

        assert media == davey.MediaType.audio
        if not frame.startswith(b"E2E:"):
            raise ValueError("Failed to decrypt: DecryptionFailed")
        return frame[4:]


def test_dave_frames_pass_through_when_the_call_is_not_end_to_end_encrypted() -> None:
    import davey

    from voice.sink import DaveFrames

    frames = DaveFrames()
    not_ready = davey.DaveSession(1, 123, 456)  # a real session before any handshake
    for client in (_Client(None), _Client(_State(None, 1)), _Client(_State(not_ready, 1)),
                   _Client(_State(_ReadySession(), 0))):  # fmt: skip
        assert frames.open(client, 7, b"opus") == b"opus"
    assert frames.failures == 0


def test_dave_frames_are_opened_with_the_session_and_bad_ones_dropped() -> None:
    from voice.sink import OPUS_SILENCE, DaveFrames

    frames, client = DaveFrames(), _Client(_State(_ReadySession(), 1))
    assert frames.open(client, 7, b"E2E:opus") == b"opus"
    assert frames.open(client, 7, OPUS_SILENCE) == OPUS_SILENCE  # sent unencrypted
    assert frames.open(client, 7, b"garbage") is None
    assert frames.failures == 1
