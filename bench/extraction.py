"""Extraction benchmark: heuristic quality on a labelled set, LLM calls on the dev data.

    python bench/extraction.py [--set FILE ...] [--dev DIR] [--no-calls] [--json]
                               [--show-misses]

Quality: ``HeuristicExtractor`` followed by the fact filters (what would be stored) on
hand-labelled sets of Discord messages: ``bench/data/extraction_set.jsonl`` (265 messages, the
set the rules were developed against) and ``bench/data/extraction_holdout.jsonl`` (146
messages written afterwards by another author and never used to tune them). A stored fact
matches a labelled fact of the same message and subject when it contains every keyword of
the label (case-insensitive, at a word start) and has the same polarity (a negation word —
not, n't, never, no longer, cannot — in both or in neither). Each label matches at most one
fact. Precision = matched facts / facts; recall = matched labels / labels. Hedging (0.6 vs
0.9 confidence) and type agreement are reported over the matches.

Calls: each export of the LoCoMo dev data is imported through the real ingest queue with
``LLMExtractor`` (real openai client) talking to a local fake OpenAI-compatible server; the
server counts chat completions. Reported per 1,000 imported messages.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from memory.extraction import Mention, SourceMessage  # noqa: E402
from memory.fact_filter import check_fact  # noqa: E402
from memory.heuristic import HEDGED, HeuristicExtractor  # noqa: E402
from memory.models import CandidateFact  # noqa: E402

DEFAULT_SETS = [
    REPO / "bench" / "data" / "extraction_set.jsonl",
    REPO / "bench" / "data" / "extraction_holdout.jsonl",
]
DEFAULT_DEV = REPO.parent / "shared" / "data" / "locomo-dev"
_NEGATION = re.compile(r"\b(?:not|never|no longer|cannot)\b|n't\b", re.I)


@dataclass
class Score:
    labels: int = 0
    facts: int = 0
    matched: int = 0
    hedge_agree: int = 0
    type_agree: int = 0
    rejected_by_filter: int = 0
    misses: list[str] = field(default_factory=list)
    wrong: list[str] = field(default_factory=list)

    @property
    def precision(self) -> float:
        return self.matched / self.facts if self.facts else 1.0

    @property
    def recall(self) -> float:
        return self.matched / self.labels if self.labels else 1.0


def _author_id(name: str) -> str:
    return f"9{abs(hash(name)) % 10**17:017d}"


def _keyword_hit(keyword: str, fact: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(keyword)}", fact, re.I) is not None


def _matches(label: dict[str, Any], fact: CandidateFact, subject: str) -> bool:
    if fact.subject != subject:
        return False
    if not all(_keyword_hit(k, fact.fact) for k in label["keywords"]):
        return False
    return bool(_NEGATION.search(label["fact"])) == bool(_NEGATION.search(fact.fact))


def score_set(path: Path) -> Score:
    extractor = HeuristicExtractor()
    score = Score()
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        row = json.loads(line)
        author_id = _author_id(row["author"])
        message = SourceMessage(
            message_id=str(number),
            guild_id="1",
            channel_id="1",
            author_id=author_id,
            author_name=row["author"],
            text=row["text"],
            created_at="2026-11-01T12:00:00.000+00:00",
            mentions=tuple(Mention(m["id"], m["name"]) for m in row.get("mentions", [])),
        )
        stored = []
        for candidate in extractor.extract_one(message):
            verdict = check_fact(message, candidate)
            if verdict.fact is None:
                score.rejected_by_filter += 1
            else:
                stored.append(verdict.fact)
        labels = row["facts"]
        score.labels += len(labels)
        score.facts += len(stored)
        unmatched = list(stored)
        for label in labels:
            subject = author_id if label["subject"] == "author" else label["subject"]
            hit = next((f for f in unmatched if _matches(label, f, subject)), None)
            if hit is None:
                score.misses.append(f"{row['id']}: {label['fact']}  <<  {row['text'][:100]!r}")
                continue
            unmatched.remove(hit)
            score.matched += 1
            score.hedge_agree += (hit.confidence == HEDGED) == bool(label["hedged"])
            score.type_agree += hit.fact_type == label["type"]
        score.wrong += [f"{row['id']}: {f.fact}  <<  {row['text'][:100]!r}" for f in unmatched]
    return score


def _exports(dev: Path) -> list[Path]:
    exports = sorted(dev.glob("*.export.json"))
    if not exports:
        raise SystemExit(f"no *.export.json under {dev}")
    return exports


async def count_llm_calls(dev: Path) -> dict[str, Any]:
    """Import every export of ``dev`` with the LLM extractor against a local fake server."""
    from bot.runtime import open_runtime
    from memory.export_import import ExportImporter
    from memory.llm_extractor import LLMExtractor
    from memory.settings import load_settings
    from tests.fake_openai import FakeOpenAI

    heuristic = HeuristicExtractor()

    def answer(body: dict[str, Any]) -> str:
        """The fake model: the heuristic's facts, in the LLM answer contract."""
        request = json.loads(body["messages"][-1]["content"])
        facts = []
        for item in request["messages"]:
            message = SourceMessage(
                item["message_id"], "1", "1", item["author_id"], item["author_name"],
                item["text"], "",
            )  # fmt: skip
            for fact in heuristic.extract_one(message):
                facts.append(
                    {
                        "message_id": item["message_id"],
                        "subject": "author",
                        "fact": fact.fact,
                        "type": fact.fact_type,
                        "confidence": fact.confidence,
                        "evidence": fact.evidence,
                    }
                )
        return json.dumps({"facts": facts})

    exports = _exports(dev)
    async with FakeOpenAI(chat_handler=answer) as server:
        with tempfile.TemporaryDirectory(prefix="memorybot-bench-") as tmp:
            settings = load_settings(
                data_dir=Path(tmp), llm_model="fake-model", llm_base_url=server.base_url,
                llm_api_key="bench",
            )  # fmt: skip
            extractor = LLMExtractor.from_settings(settings)
            started = time.perf_counter()
            async with open_runtime(settings, extractor=extractor) as runtime:
                importer = ExportImporter(runtime.queue)
                await importer.import_paths(exports)
                await runtime.queue.join()
                summary = importer.summary
                stats = [await runtime.store.stats(g) for g in await runtime.store.guild_ids()]
            elapsed = time.perf_counter() - started
    calls = len(server.chat_requests)
    messages = summary.new
    return {
        "exports": [p.name for p in exports],
        "messages": messages,
        "llm_calls": calls,
        "calls_per_1000": round(1000 * calls / messages, 1) if messages else 0.0,
        "facts": sum(s.facts for s in stats),
        "seconds": round(elapsed, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--set", type=Path, action="append", dest="sets", help="labelled JSONL set (repeatable)"
    )
    parser.add_argument("--dev", type=Path, default=DEFAULT_DEV, help="LoCoMo dev exports")
    parser.add_argument("--no-calls", action="store_true", help="skip the LLM call count")
    parser.add_argument("--show-misses", action="store_true", help="list misses and errors")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()

    result: dict[str, Any] = {}
    scores: dict[str, Score] = {}
    for path in args.sets or DEFAULT_SETS:
        score = scores[path.stem] = score_set(path)
        result[path.stem] = {
            "messages": sum(1 for line in path.open(encoding="utf-8") if line.strip()),
            "labelled_facts": score.labels,
            "stored_facts": score.facts,
            "matched": score.matched,
            "precision": round(score.precision, 3),
            "recall": round(score.recall, 3),
            "hedge_agreement": round(score.hedge_agree / score.matched, 3)
            if score.matched
            else None,
            "type_agreement": round(score.type_agree / score.matched, 3) if score.matched else None,
            "refused_by_filters": score.rejected_by_filter,
        }
    if not args.no_calls:
        result["llm"] = asyncio.run(count_llm_calls(args.dev))
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key}: {json.dumps(value)}")
    if args.show_misses:
        for name, score in scores.items():
            print(f"\n{name}: missed labels:")
            print("\n".join(score.misses))
            print(f"\n{name}: facts matching no label:")
            print("\n".join(score.wrong))


if __name__ == "__main__":
    main()
