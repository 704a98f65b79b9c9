"""Retrieval quality at a budget: evidence recall of what the prompt memory slice shows, held
against simple baselines showing as many characters.

    python bench/retrieval.py [--dev DIR ...] [--budget 4000] [--extractor offline|none]
                              [--no-lifecycle] [--json]

Each ``*.export.json`` under each ``--dev`` folder (LoCoMo-format: ``../shared/data/locomo-dev``,
or the informal chats of ``bench/data/retrieval``) is imported (offline, the chosen extractor)
into a fresh data directory; then for every question of category 1-4 with evidence, the
slice is built for the question in the conversation's channel (asked by nobody in
particular) with the budget of characters. Its recall is the share of the question's
evidence messages that the slice shows or points to through provenance (a fact's source
message, a message item and every neighbouring turn shown with it); its size is the
characters it shows (fact text + message text + neighbouring turns, each message once).

The baselines (``bench/retrieval_baselines.py``) rank the conversation's raw turns for the
same question and show them until the same budget is full: BM25; BM25 hits with their
neighbouring turns; rank fusion of BM25 and the bundled embedder. Reported per set: recall
overall and per category, and the mean characters shown, for the slice and each baseline.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench.retrieval_baselines import BASELINES, Conversation, Turn  # noqa: E402

DEFAULT_DEV = REPO.parent / "shared" / "data" / "locomo-dev"
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}
SLICE = "slice"


def _pairs(dev: Path) -> list[tuple[Path, Path]]:
    exports = sorted(dev.glob("*.export.json"))
    if not exports:
        raise SystemExit(f"no *.export.json under {dev}")
    return [(e, e.with_name(e.name.replace(".export.json", ".questions.json"))) for e in exports]


def _conversation(export: Path) -> Conversation:
    from memory.search.embeddings import LocalEmbedder, matrix_from_blobs

    embedder = LocalEmbedder()
    messages = json.loads(export.read_text(encoding="utf-8"))["messages"]
    turns = [Turn(str(m["id"]), m.get("content") or "") for m in messages]

    def vectorise(texts: list[str]) -> np.ndarray:
        return matrix_from_blobs(embedder.embed_sync(texts))

    return Conversation(turns, vectorise)


class Tally:
    """Recall per category and characters shown, for one way of retrieving."""

    def __init__(self) -> None:
        self.recalls: dict[int, list[float]] = defaultdict(list)
        self.chars: list[int] = []

    def add(self, category: int, evidence: set[str], shown: set[str], chars: int) -> None:
        self.recalls[category].append(len(evidence & shown) / len(evidence))
        self.chars.append(chars)

    def summary(self) -> dict[str, Any]:
        every = [r for values in self.recalls.values() for r in values]
        return {
            "recall": round(sum(every) / len(every), 3),
            "per_category": {
                CATEGORIES[c]: round(sum(v) / len(v), 3) for c, v in sorted(self.recalls.items())
            },
            "mean_chars": round(sum(self.chars) / len(self.chars)),
            "max_chars": max(self.chars),
        }


async def evaluate(
    dev: Path, extractor: str, budget: int, lifecycle: bool = True
) -> dict[str, Any]:
    from bot.commands_ingest import run_import
    from memory.runtime import open_memory
    from memory.settings import load_settings

    tallies = {name: Tally() for name in (SLICE, *BASELINES)}
    items: list[int] = []
    latency: list[float] = []
    with tempfile.TemporaryDirectory(prefix="memorybot-retrieval-") as tmp:
        settings = load_settings(data_dir=Path(tmp), extractor=extractor, fact_lifecycle=lifecycle)
        pairs = _pairs(dev)
        _summary, errors = await run_import(settings, [e for e, _ in pairs], quiet=True)
        if errors:
            raise SystemExit("; ".join(errors))
        async with open_memory(settings, start_queue=False) as rt:
            active = sum([len(await rt.active_facts(g)) for g in await rt.guild_ids()])
            for export, questions_path in pairs:
                conversation = _conversation(export)
                questions = json.loads(questions_path.read_text(encoding="utf-8"))
                for question in questions:
                    category = int(question["category"])
                    evidence = set(map(str, question.get("evidence_message_ids") or []))
                    if category not in CATEGORIES or not evidence:
                        continue
                    started = time.perf_counter()
                    memory = await rt.slice(
                        question["guild_id"], question["question"],
                        channel_id=question["channel_id"], budget=budget,
                    )  # fmt: skip
                    latency.append(time.perf_counter() - started)
                    shown = memory.message_ids()
                    tallies[SLICE].add(category, evidence, shown, memory.shown_chars())
                    items.append(memory.item_count())
                    for name, baseline in BASELINES.items():
                        got = baseline(conversation, question["question"], budget)
                        tallies[name].add(category, evidence, set(got.message_ids), got.chars)
    return {
        "set": str(dev),
        "questions": len(items),
        "budget": budget,
        **{name: tally.summary() for name, tally in tallies.items()},
        "slice_mean_items": round(sum(items) / len(items), 1),
        "slice_mean_ms": round(1000 * sum(latency) / len(latency), 1),
        "extractor": extractor,
        "fact_lifecycle": lifecycle,
        "active_facts": active,
    }


def print_table(result: dict[str, Any]) -> None:
    print(f"{result['set']}: {result['questions']} questions, budget {result['budget']:,} "
          f"characters, {result['active_facts']} active facts ({result['extractor']})")  # fmt: skip
    names = [SLICE, *BASELINES]
    header = ["", "recall", *CATEGORIES.values(), "mean chars"]
    print("  " + "".join(f"{h:>22}" if i == 0 else f"{h:>12}" for i, h in enumerate(header)))
    for name in names:
        row = result[name]
        cells = [row["recall"], *(row["per_category"].get(c, "-") for c in CATEGORIES.values())]
        print(f"  {name:>22}" + "".join(f"{c:>12}" for c in cells) + f"{row['mean_chars']:>12,}")
    print(f"  slice: {result['slice_mean_items']} items, {result['slice_mean_ms']} ms a question")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dev", type=Path, action="append", help="LoCoMo-format exports")
    parser.add_argument("--budget", type=int, default=4000, help="characters shown")
    parser.add_argument("--extractor", default="offline", choices=["offline", "none"])
    parser.add_argument(
        "--no-lifecycle",
        dest="lifecycle",
        action="store_false",
        help="no merging or superseding of facts (MEMORYBOT_FACT_LIFECYCLE=false)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object a set")
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)  # the imports' progress is not the report
    for dev in args.dev or [DEFAULT_DEV]:
        result = asyncio.run(evaluate(dev, args.extractor, args.budget, args.lifecycle))
        if args.json:
            print(json.dumps(result))
        else:
            print_table(result)


if __name__ == "__main__":
    main()
