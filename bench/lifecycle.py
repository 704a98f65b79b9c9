"""Fact lifecycle: how well ``memory.lifecycle.relation`` tells merges and supersessions apart.

    python bench/lifecycle.py [--set FILE ...] [--show-misses] [--sweep] [--llm] [--json]

Each set (``bench/data/lifecycle/dev.jsonl``, tuned on, and ``holdout.jsonl``, informal chat
facts labelled before any rule was written and never tuned on) holds labelled pairs of
facts about one member, one JSON object a line:

    {"old": "Sarah lives in Boston.", "new": "Sarah moved to Denver.",
     "label": "contradicts", "style": "llm", "kind": "home", "note": "..."}

``label``: ``contradicts`` (the new fact should supersede the old), ``same`` (a merge),
``compatible`` (a related update that leaves the old fact true: expected UNRELATED) or
``unrelated``. ``style`` is how the facts are written; ``kind`` the attribute at stake.

Every pair is classified as the store's judge classifies it (``FactJudge.pair``): the rules of
``relation(old, new, similarity)``, the similarity coming from the bundled local embedder
(``FactSimilarity``, all texts embedded once), then the learned merges of
``memory/lifecycle/merging.py`` for the pairs the rules call unrelated (``--rules-only``:
without them). Reported per set, and per style:
- contradictions caught: share of ``contradicts`` pairs classified CONTRADICTS (target ≥ 0.90);
- false supersessions: share of the other pairs classified CONTRADICTS (target ≤ 0.03);
- paraphrases merged: share of ``same`` pairs classified SAME (target ≥ 0.85);
- wrong merges: share of the other pairs classified SAME (target ≤ 0.02);
- time per pair: median µs of ``relation`` with its caches cleared before each call (cold:
  both texts read from scratch), and with them warm (a member's old facts are read once);
  the cold median over the pairs the pre-check ends (no content word in common, no slot
  word on both sides) is shown apart.
The median embedding similarity per label and the thresholds in use are printed too.
``--sweep``: paraphrases merged and wrong merges of each set for other values of the merge
threshold ``SAME_MIN_SIMILARITY`` (run it on the dev set: the threshold is tuned there).

``--llm``: the four shares offline and with the verdicts of the LLM's check (every pair sent,
``MAX_PAIRS`` a request, to the ``MEMORYBOT_LLM_*`` endpoint; unanswered: offline).

Cross pairs (unlabelled): every ordered pair of two distinct facts of a set about the same
member (same first word), the labelled pairs left out: what comparing a new fact with a
member's other facts looks like. Reported: how many the pre-check ends, the cold median µs,
and how many are classified CONTRADICTS or SAME (``--show-misses`` lists them, to read: on
unlabelled pairs a flag is not necessarily wrong).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from memory.lifecycle.judge import FactJudge  # noqa: E402
from memory.lifecycle.reading import keys  # noqa: E402
from memory.lifecycle.relation import (  # noqa: E402
    SAME_MIN_SIMILARITY,
    Relation,
    clear_caches,
    relation,
)
from memory.lifecycle.similarity import FactSimilarity  # noqa: E402

DATA = REPO / "bench" / "data" / "lifecycle"
DEFAULT_SETS = sorted(DATA.glob("*.jsonl"))
LABELS = ("contradicts", "same", "compatible", "unrelated")
TARGETS = {
    "contradictions_caught": (">=", 0.90),
    "false_supersessions": ("<=", 0.03),
    "paraphrases_merged": (">=", 0.85),
    "wrong_merges": ("<=", 0.02),
}
TIMING_ROUNDS = 5


@dataclass(frozen=True)
class Pair:
    old: str
    new: str
    label: str
    style: str
    kind: str
    note: str


@dataclass(frozen=True)
class Outcome:
    pair: Pair
    similarity: float
    got: Relation
    cold_us: float
    warm_us: float


def load_pairs(path: Path) -> list[Pair]:
    pairs = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        row = json.loads(line)
        if row["label"] not in LABELS:
            raise SystemExit(f"{path}:{number}: unknown label {row['label']!r}")
        pairs.append(Pair(row["old"], row["new"], row["label"], row.get("style", ""),
                          row.get("kind", ""), row.get("note", "")))  # fmt: skip
    return pairs


def timed(pair: Pair, similarity: float) -> tuple[Relation, float, float]:
    """The relation, and the median µs of a cold call and of a warm one."""
    cold, warm = [], []
    got = Relation.UNRELATED
    for _ in range(TIMING_ROUNDS):
        clear_caches()
        started = time.perf_counter()
        got = relation(pair.old, pair.new, similarity)
        cold.append(time.perf_counter() - started)
        started = time.perf_counter()
        relation(pair.old, pair.new, similarity)
        warm.append(time.perf_counter() - started)
    return got, 1e6 * statistics.median(cold), 1e6 * statistics.median(warm)


def classify(pairs: Sequence[Pair], judge: FactJudge) -> list[Outcome]:
    """Each pair's verdict by ``judge``, and the rules' time (``relation``)."""
    similarity = judge.similarity
    similarity.vectors([text for pair in pairs for text in (pair.old, pair.new)])
    outcomes = []
    for pair in pairs:
        score = similarity.score(pair.old, pair.new)
        _rules, cold_us, warm_us = timed(pair, score)
        outcomes.append(Outcome(pair, score, judge.pair(pair.old, pair.new), cold_us, warm_us))
    return outcomes


def prechecked(old: str, new: str) -> bool:
    """Whether ``relation``'s pre-check ends the pair (its rule, restated on ``keys``)."""
    first, second = keys(old), keys(new)
    return not first.words & second.words and not (first.cued and second.cued)


def cross_pairs(pairs: Sequence[Pair]) -> list[Pair]:
    """Ordered pairs of distinct facts of one member in ``pairs``, the labelled ones left out."""
    by_member: dict[str, list[str]] = defaultdict(list)
    for pair in pairs:
        for text in (pair.old, pair.new):
            member = text.split()[0].lower().removesuffix("'s") if text.split() else ""
            if text not in by_member[member]:
                by_member[member].append(text)
    labelled = {(pair.old, pair.new) for pair in pairs} | {(p.new, p.old) for p in pairs}
    return [
        Pair(old, new, "unlabelled", "", "", "")
        for texts in by_member.values()
        for old in texts
        for new in texts
        if old != new and (old, new) not in labelled
    ]


def cross_report(pairs: Sequence[Pair], judge: FactJudge) -> dict[str, Any]:
    outcomes = classify(cross_pairs(pairs), judge)
    ended = [o for o in outcomes if prechecked(o.pair.old, o.pair.new)]
    flagged = [o for o in outcomes if o.got is not Relation.UNRELATED]
    return {
        "pairs": len(outcomes),
        "ended_by_precheck": len(ended),
        "median_us_cold": _median([o.cold_us for o in outcomes]),
        "median_us_cold_prechecked": round(statistics.median(o.cold_us for o in ended), 1)
        if ended
        else None,
        "contradicts": sum(o.got is Relation.CONTRADICTS for o in outcomes),
        "same": sum(o.got is Relation.SAME for o in outcomes),
        "flagged": [_miss(o) for o in flagged],
    }


def _median(values: Sequence[float]) -> float | None:
    return round(statistics.median(values), 1) if values else None  # none: each member once


def _share(hits: int, total: int) -> float | None:
    return round(hits / total, 3) if total else None


def scores(outcomes: Sequence[Outcome]) -> dict[str, Any]:
    """The four shares with their counts."""
    contra = [o for o in outcomes if o.pair.label == "contradicts"]
    other = [o for o in outcomes if o.pair.label != "contradicts"]
    same = [o for o in outcomes if o.pair.label == "same"]
    not_same = [o for o in outcomes if o.pair.label != "same"]
    counts = {
        "contradictions_caught": (sum(o.got is Relation.CONTRADICTS for o in contra), len(contra)),
        "false_supersessions": (sum(o.got is Relation.CONTRADICTS for o in other), len(other)),
        "paraphrases_merged": (sum(o.got is Relation.SAME for o in same), len(same)),
        "wrong_merges": (sum(o.got is Relation.SAME for o in not_same), len(not_same)),
    }
    return {
        name: {"share": _share(hits, total), "hits": hits, "of": total}
        for name, (hits, total) in counts.items()
    }


def evaluate(path: Path, judge: FactJudge) -> dict[str, Any]:
    pairs = load_pairs(path)
    outcomes = classify(pairs, judge)
    by_style: dict[str, list[Outcome]] = defaultdict(list)
    for outcome in outcomes:
        by_style[outcome.pair.style].append(outcome)
    ended = [o.cold_us for o in outcomes if prechecked(o.pair.old, o.pair.new)]
    sims: dict[str, list[float]] = defaultdict(list)
    for outcome in outcomes:
        sims[outcome.pair.label].append(outcome.similarity)
    overall = scores(outcomes)
    return {
        "set": path.name,
        "pairs": len(pairs),
        "labels": dict(Counter(p.label for p in pairs)),
        **overall,
        "targets_met": {name: _meets(name, overall[name]["share"]) for name in TARGETS},
        "per_style": {style: scores(group) for style, group in sorted(by_style.items())},
        "median_us_cold": round(statistics.median(o.cold_us for o in outcomes), 1),
        "median_us_warm": round(statistics.median(o.warm_us for o in outcomes), 1),
        "ended_by_precheck": len(ended),
        "median_us_cold_prechecked": round(statistics.median(ended), 1) if ended else None,
        "median_similarity": {k: round(statistics.median(v), 3) for k, v in sorted(sims.items())},
        "misses": [_miss(o) for o in outcomes if not _right(o)],
        "cross": cross_report(pairs, judge),
    }


def _right(outcome: Outcome) -> bool:
    expected = {"contradicts": Relation.CONTRADICTS, "same": Relation.SAME}
    return outcome.got is expected.get(outcome.pair.label, Relation.UNRELATED)


def _miss(outcome: Outcome) -> dict[str, Any]:
    pair = outcome.pair
    return {"old": pair.old, "new": pair.new, "label": pair.label, "got": str(outcome.got),
            "kind": pair.kind, "style": pair.style, "similarity": round(outcome.similarity, 3),
            "note": pair.note}  # fmt: skip


def _meets(name: str, share: float | None) -> bool | None:
    if share is None:
        return None
    direction, target = TARGETS[name]
    return share >= target if direction == ">=" else share <= target


SWEEP = (0.0, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.85, 0.9)


def sweep(path: Path, similarity: FactSimilarity) -> list[dict[str, Any]]:
    """The merge figures of a set for each merge threshold of ``SWEEP``."""
    pairs = load_pairs(path)
    scored = [(pair, similarity.score(pair.old, pair.new)) for pair in pairs]
    rows = []
    for threshold in SWEEP:
        outcomes = [
            Outcome(pair, score, relation(pair.old, pair.new, score,
                                          same_min_similarity=threshold), 0.0, 0.0)
            for pair, score in scored
        ]  # fmt: skip
        merged = scores(outcomes)
        rows.append({"threshold": threshold, "paraphrases_merged": merged["paraphrases_merged"],
                     "wrong_merges": merged["wrong_merges"]})  # fmt: skip
    return rows


async def llm_verdicts(pairs: Sequence[Pair], similarity: FactSimilarity) -> list[str | None]:
    """The LLM check's verdict on each pair (None: not answered), ``MAX_PAIRS`` a request."""
    from memory.lifecycle.judge import FactJudge
    from memory.lifecycle.llm_check import MAX_PAIRS, FactCheckError, LLMFactCheck
    from memory.models import Fact
    from memory.settings import load_settings

    async def no_facts(guild_id: str, subjects: Sequence[str]) -> list[Fact]:
        return []  # the pairs are given: nothing is read

    check = LLMFactCheck.from_settings(load_settings(), FactJudge(similarity), similarity,
                                       no_facts)  # fmt: skip
    got: list[str | None] = [None] * len(pairs)
    try:
        for start in range(0, len(pairs), MAX_PAIRS):
            chunk = pairs[start : start + MAX_PAIRS]
            try:
                answered = await check.relations([(pair.old, pair.new) for pair in chunk])
            except FactCheckError as exc:
                print(f"pairs {start + 1}-{start + len(chunk)}: {exc}", file=sys.stderr)
                continue
            for index, verdict in answered.items():
                got[start + index] = verdict
    finally:
        await check.aclose()
    return got


def evaluate_llm(path: Path, judge: FactJudge) -> dict[str, Any]:
    """The four shares of a set, offline and with the LLM's verdicts."""
    pairs = load_pairs(path)
    similarity = judge.similarity
    scored = [(pair, similarity.score(pair.old, pair.new)) for pair in pairs]
    offline = [Outcome(pair, score, judge.pair(pair.old, pair.new), 0.0, 0.0)
               for pair, score in scored]  # fmt: skip
    verdicts = asyncio.run(llm_verdicts(pairs, similarity))
    checked = [
        outcome if verdict is None else Outcome(outcome.pair, outcome.similarity,
                                                Relation(verdict), 0.0, 0.0)
        for outcome, verdict in zip(offline, verdicts, strict=True)
    ]  # fmt: skip
    return {"set": path.name, "pairs": len(pairs), "answered": sum(v is not None for v in verdicts),
            "offline": scores(offline), "llm": scores(checked)}  # fmt: skip


def thresholds() -> dict[str, float]:
    return {"SAME_MIN_SIMILARITY": SAME_MIN_SIMILARITY}


def _cell(score: dict[str, Any]) -> str:
    if score["share"] is None:
        return "-"
    return f"{score['share']:.3f} ({score['hits']}/{score['of']})"


def print_table(results: Sequence[dict[str, Any]], show_misses: bool) -> None:
    names = list(TARGETS)
    header = ["set / style", *names]
    rows: list[list[str]] = []
    for result in results:
        rows.append([f"{result['set']} ({result['pairs']})", *(_cell(result[n]) for n in names)])
        for style, score in result["per_style"].items():
            rows.append([f"  {style}", *(_cell(score[n]) for n in names)])
    targets = ["target", *(f"{d} {t:.2f}" for d, t in TARGETS.values())]
    widths = [max(len(row[i]) for row in [header, targets, *rows]) for i in range(len(header))]
    for row in [header, targets, *rows]:
        print("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)))
    print()
    for result in results:
        met = ", ".join(f"{k} {'ok' if v else 'MISSED'}" for k, v in result["targets_met"].items())
        print(f"{result['set']}: {met}")
        print(f"  µs per pair (median): cold {result['median_us_cold']}, warm "
              f"{result['median_us_warm']}; the pre-check ends {result['ended_by_precheck']} "
              f"pairs, cold {result['median_us_cold_prechecked']}")  # fmt: skip
        cross = result["cross"]
        print(f"  cross pairs (one member's other facts, unlabelled): {cross['pairs']}, the "
              f"pre-check ends {cross['ended_by_precheck']}; µs cold {cross['median_us_cold']} "
              f"(pre-checked {cross['median_us_cold_prechecked']}); classified contradicts "
              f"{cross['contradicts']}, same {cross['same']}")  # fmt: skip
        print(f"  median similarity per label: {result['median_similarity']}")
    print(f"thresholds: {thresholds()}")
    if show_misses:
        for result in results:
            print(f"\nmisses in {result['set']} ({len(result['misses'])}):")
            for miss in result["misses"]:
                print(f"  [{miss['label']} → {miss['got']}] {miss['kind']}/{miss['style']} "
                      f"sim {miss['similarity']}: {miss['old']!r} / {miss['new']!r}"
                      + (f"  ({miss['note']})" if miss["note"] else ""))  # fmt: skip
            print(f"\ncross pairs of {result['set']} flagged ({len(result['cross']['flagged'])}):")
            for flag in result["cross"]["flagged"]:
                print(
                    f"  [{flag['got']}] sim {flag['similarity']}: {flag['old']!r} / {flag['new']!r}"
                )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--set", dest="sets", type=Path, action="append",
        help="labelled pairs, JSONL (repeatable; default: every set in bench/data/lifecycle)",
    )  # fmt: skip
    parser.add_argument("--show-misses", action="store_true", help="list the misclassified pairs")
    parser.add_argument("--sweep", action="store_true", help="merge figures per threshold")
    parser.add_argument("--llm", action="store_true", help="the LLM check's verdicts too")
    parser.add_argument("--rules-only", action="store_true", help="without the learned merges")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    similarity = FactSimilarity()
    judge = FactJudge(similarity, learned=not args.rules_only)
    if args.llm:
        checked = [evaluate_llm(path, judge) for path in args.sets or DEFAULT_SETS]
        if args.json:
            print(json.dumps({"sets": checked, "targets": TARGETS}))
            return
        for result in checked:
            print(f"{result['set']} ({result['pairs']} pairs, {result['answered']} answered)")
            for how in ("offline", "llm"):
                print(f"  {how:8}", "  ".join(f"{n} {_cell(result[how][n])}" for n in TARGETS))
        return
    if args.sweep:
        for path in args.sets or DEFAULT_SETS[:1]:
            for row in sweep(path, similarity):
                print(
                    f"{path.name} SAME_MIN_SIMILARITY={row['threshold']:.2f}: merged "
                    f"{_cell(row['paraphrases_merged'])}, wrong {_cell(row['wrong_merges'])}"
                )
        return
    results = [evaluate(path, judge) for path in args.sets or DEFAULT_SETS]
    if args.json:
        print(json.dumps({"sets": results, "thresholds": thresholds(), "targets": TARGETS}))
        return
    print_table(results, args.show_misses)


if __name__ == "__main__":
    main()
