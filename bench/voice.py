"""Voice benchmark: real-time factor of segmentation + offline STT, and its word error rate.

    python bench/voice.py [--repeat 3] [--json]

Each spoken fixture of ``tests/data/voice`` (espeak-ng speech, its text beside it) is
encoded the way a Discord client sends audio — 48 kHz stereo Opus in 20 ms packets, with
half a second of silence around it — and goes through the live receive path (Opus decoding,
the per-speaker collector: downsampler, voice-activity detector, segmenter), then every
utterance is transcribed by pocketsphinx (loaded once, before timing). The real-time factor
is processing time over the length of the recordings (≤ 0.5 means twice as fast as people
speak); the word error rate is the word-level edit distance to the spoken text over its
number of words.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
FIXTURES = REPO / "tests" / "data" / "voice"


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z']+", text.lower())


def word_errors(reference: list[str], hypothesis: list[str]) -> int:
    """Word-level Levenshtein distance."""
    previous = list(range(len(hypothesis) + 1))
    for i, ref in enumerate(reference, 1):
        current = [i]
        for j, hyp in enumerate(hypothesis, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1,
                               previous[j - 1] + (ref != hyp)))  # fmt: skip
        previous = current
    return previous[-1]


def run(repeat: int) -> dict[str, Any]:
    from discord.opus import Decoder

    from tests.test_voice_stt import to_discord  # the fixtures as Discord delivers audio
    from tests.voice_link import opus_frames
    from voice.audio import read_wav
    from voice.receive import UtteranceCollector
    from voice.stt import PocketSphinxTranscriber

    sphinx = PocketSphinxTranscriber()
    sphinx.transcribe_sync(bytes(3200))  # load the model before timing
    fixtures = sorted(FIXTURES.glob("*.wav"))
    if not fixtures:
        raise SystemExit(f"no fixtures under {FIXTURES}")
    audio_s = 0.0
    segment_s: list[float] = []
    stt_s: list[float] = []
    errors = words = 0
    transcripts: dict[str, str] = {}
    for run_number in range(repeat):
        segment_total = stt_total = 0.0
        for path in fixtures:
            pcm, rate, channels = read_wav(path.read_bytes())
            assert (rate, channels) == (16_000, 1), path
            silence = bytes(rate)  # 0.5 s: Discord sends no packets while nobody speaks
            stream = to_discord(silence + pcm + silence)
            if run_number == 0:
                audio_s += len(pcm) / (rate * 2)  # the fixture's own length: what was said
            frames = opus_frames(stream)  # what arrives from Discord (encoding is not timed)
            started = time.perf_counter()
            utterances: list[Any] = []
            collector = UtteranceCollector(utterances.append)
            decoder = Decoder()
            for number, frame in enumerate(frames):
                collector.push(1, decoder.decode(frame, fec=False), number * 960)
            collector.close()
            segmented = time.perf_counter()
            text = " ".join(sphinx.transcribe_sync(u.utterance.pcm) for u in utterances)
            segment_total += segmented - started
            stt_total += time.perf_counter() - segmented
            if run_number == 0:
                reference = _words(path.with_suffix(".txt").read_text(encoding="utf-8"))
                errors += word_errors(reference, _words(text))
                words += len(reference)
                transcripts[path.stem] = text
        segment_s.append(segment_total)
        stt_s.append(stt_total)
    segment, stt = statistics.median(segment_s), statistics.median(stt_s)
    return {
        "fixtures": len(fixtures),
        "audio_seconds": round(audio_s, 1),
        "real_time_factor": {"segmentation": round(segment / audio_s, 3),
                             "stt": round(stt / audio_s, 3),
                             "total": round((segment + stt) / audio_s, 3)},
        "word_error_rate": round(errors / max(words, 1), 3),
        "words": words,
        "transcripts": transcripts,
    }  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="timed passes (median)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result = run(args.repeat)
    print(json.dumps(result) if args.json else json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
