"""Places behind the home and origin slots of :mod:`memory.lifecycle.slots`: other names of a
place, and which places lie in which (a city in its state and country, a district in its
city). Hand-written, lowercase, accents dropped; beside them, the towns and cities of
GeoNames with their countries (``cities.tsv``, written by ``bench/places_table.py``).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from memory.lifecycle.lexicon import _names, _words

TOWNS_TABLE = Path(__file__).with_name("cities.tsv")

PLACE_ALIASES = {
    "nyc": "new york", "new york city": "new york", "ny": "new york", "la": "los angeles",
    "sf": "san francisco", "dc": "washington", "washington dc": "washington",
    "philly": "philadelphia", "vegas": "las vegas", "us": "united states",
    "usa": "united states", "america": "united states", "states": "united states",
    "united states": "united states", "united kingdom": "united kingdom",
    "uk": "united kingdom", "britain": "united kingdom",
    "great britain": "united kingdom", "holland": "netherlands", "nz": "new zealand",
    "uae": "united arab emirates", "aus": "australia", "cali": "california", "ldn": "london",
    "down under": "australia", "manc": "manchester",
    # names of a place in its own language, or its old name
    "wien": "vienna", "munchen": "munich", "koln": "cologne", "praha": "prague", "roma": "rome",
    "firenze": "florence", "napoli": "naples", "lisboa": "lisbon", "warszawa": "warsaw",
    "moskva": "moscow", "kiev": "kyiv", "bombay": "mumbai", "calcutta": "kolkata",
    "madras": "chennai", "bengaluru": "bangalore", "peking": "beijing", "den haag": "the hague",
    "bruxelles": "brussels", "geneve": "geneva", "deutschland": "germany", "espana": "spain",
    "brasil": "brazil", "cdmx": "mexico city",
    # nicknames
    "brum": "birmingham", "melbs": "melbourne", "the big apple": "new york", "chi-town": "chicago",
    "chitown": "chicago", "nola": "new orleans", "joburg": "johannesburg", "jozi": "johannesburg",
    "brissie": "brisbane", "brisvegas": "brisbane", "the big smoke": "london", "kl": "kuala lumpur",
    "hcmc": "ho chi minh", "saigon": "ho chi minh",
}  # fmt: skip
"""Abbreviations and other names of a place, mapped to one name (values of home, origin)."""

US_STATES = _words(
    "alabama alaska arizona arkansas california colorado connecticut delaware florida "
    "georgia hawaii idaho illinois indiana iowa kansas kentucky louisiana maine maryland "
    "massachusetts michigan minnesota mississippi missouri montana nebraska nevada "
    "ohio oklahoma oregon pennsylvania tennessee texas utah vermont virginia wisconsin "
    "wyoming"
) | _names(
    "new hampshire, new jersey, new mexico, north carolina, north dakota, rhode island, "
    "south carolina, south dakota, west virginia"
)
"""US states (New York and Washington left out: cities too)."""

COUNTRIES = _words(
    "afghanistan albania algeria argentina armenia australia austria bangladesh belgium "
    "bolivia brazil bulgaria cambodia cameroon canada chile china colombia croatia cuba "
    "cyprus czechia denmark ecuador egypt england estonia ethiopia fiji finland france "
    "germany ghana greece guatemala hungary iceland india indonesia iran iraq ireland "
    "israel italy jamaica japan jordan kenya korea latvia lebanon lithuania luxembourg "
    "malaysia malta mexico morocco nepal netherlands nigeria norway pakistan peru "
    "philippines poland portugal romania russia scotland serbia singapore slovakia "
    "slovenia somalia spain sweden switzerland syria taiwan tanzania thailand tunisia "
    "turkey uganda ukraine uruguay venezuela vietnam wales zimbabwe samoa tonga"
) | _names(
    "united states, united kingdom, new zealand, south africa, south korea, north korea, "
    "sri lanka, saudi arabia, costa rica, united arab emirates, northern ireland, "
    "puerto rico"
)

COUNTIES = _words(
    "yorkshire cornwall devon kent norfolk suffolk surrey essex sussex dorset somerset cumbria "
    "lancashire cheshire hampshire"
)
"""English counties: each lies in England."""

REGIONS = (
    US_STATES
    | COUNTRIES
    | COUNTIES
    | _words(
        "europe asia africa oceania scandinavia midwest "
        "bavaria tuscany catalonia andalusia quebec ontario alberta queensland tasmania "
        "siberia patagonia"
    )
    | _names(
        "british columbia, new south wales, new england, bay area, south america, "
        "north america, latin america, middle east, east coast, west coast"
    )
)
"""Countries, US states, English counties and large regions: a home or origin there holds beside
a city."""

DISTRICTS = {
    "camden": "london", "hackney": "london", "brixton": "london", "shoreditch": "london",
    "islington": "london", "clapham": "london", "peckham": "london", "soho": "london",
    "brooklyn": "new york", "manhattan": "new york", "queens": "new york",
    "bronx": "new york", "harlem": "new york", "hollywood": "los angeles",
    "kreuzberg": "berlin", "montmartre": "paris", "shibuya": "tokyo", "shinjuku": "tokyo",
    "gastown": "vancouver", "bondi": "sydney",
}  # fmt: skip
"""Well-known districts and the city they are in: living in one is living in the other."""
DISTRICTS_TABLE = Path(__file__).with_name("districts.tsv")
"""The districts and suburbs of cities of 300,000 people or more (GeoNames, CC BY 4.0; written
by ``bench/districts_table.py``), each with the cities it lies in."""


def _cities(text: str) -> dict[str, frozenset[str]]:
    """``city: state, country; ...`` read as each city and the places it lies in."""
    cities: dict[str, frozenset[str]] = {}
    for entry in text.split(";"):
        city, _, places = entry.partition(":")
        cities[city.strip()] = _names(places)
    return cities


WELL_KNOWN = _cities(
    "boston: massachusetts, united states; denver: colorado, united states; "
    "austin: texas, united states; houston: texas, united states; dallas: texas, united states; "
    "chicago: illinois, united states; seattle: united states; portland: united states; "
    "miami: florida, united states; orlando: florida, united states; "
    "atlanta: georgia, united states; phoenix: arizona, united states; "
    "los angeles: california, united states; san francisco: california, united states; "
    "san diego: california, united states; new york: united states; "
    "philadelphia: pennsylvania, united states; pittsburgh: pennsylvania, united states; "
    "detroit: michigan, united states; nashville: tennessee, united states; "
    "las vegas: nevada, united states; minneapolis: minnesota, united states; "
    "london: england, united kingdom; manchester: england, united kingdom; "
    "leeds: england, united kingdom; bristol: england, united kingdom; "
    "birmingham: england, united kingdom; liverpool: england, united kingdom; "
    "edinburgh: scotland, united kingdom; glasgow: scotland, united kingdom; "
    "aberdeen: scotland, united kingdom; cardiff: wales, united kingdom; "
    "belfast: northern ireland, united kingdom; dublin: ireland; paris: france; "
    "lyon: france; berlin: germany; munich: germany; hamburg: germany; madrid: spain; "
    "barcelona: spain, catalonia; rome: italy; milan: italy; amsterdam: netherlands; "
    "lisbon: portugal; vienna: austria; zurich: switzerland; stockholm: sweden; "
    "oslo: norway; copenhagen: denmark; tokyo: japan; kyoto: japan; osaka: japan; "
    "seoul: south korea, korea; beijing: china; shanghai: china; mumbai: india; "
    "delhi: india; bangalore: india; sydney: australia, new south wales; "
    "melbourne: australia; toronto: canada, ontario; vancouver: canada, british columbia; "
    "montreal: canada, quebec; auckland: new zealand; wellington: new zealand; "
    "mexico city: mexico; sao paulo: brazil; cape town: south africa; lagos: nigeria; "
    "nairobi: kenya; cairo: egypt; istanbul: turkey; dubai: united arab emirates; "
    "manila: philippines; cebu: philippines; ho chi minh: vietnam"
)
"""Well-known cities and the states and countries they lie in ("Denver" is not in Texas)."""


def _towns() -> dict[str, frozenset[str]]:
    """The table of towns: each name and the places it lies in (one set per distinct list)."""
    within: dict[str, frozenset[str]] = {}
    towns: dict[str, frozenset[str]] = {}
    for line in TOWNS_TABLE.read_text(encoding="utf-8").splitlines():
        name, _, places = line.partition("\t")
        towns[name] = within.setdefault(places, _names(places))
    return towns


def _districts() -> dict[str, frozenset[str]]:
    """The table of districts, and the well-known ones above: each name and its cities."""
    rows = (line.partition("\t") for line in DISTRICTS_TABLE.read_text("utf-8").splitlines())
    table = {name: frozenset(cities.split(", ")) for name, _, cities in rows}
    return {**table, **{name: frozenset({city}) for name, city in DISTRICTS.items()}}


CITIES_OF_DISTRICT = _districts()


def within_city(district: str, city: str) -> bool:
    """Whether ``district`` is a district or suburb of ``city`` ("neukolln", "berlin")."""
    return city in CITIES_OF_DISTRICT.get(district, ())


CITIES = {**_towns(), **WELL_KNOWN}
"""Every town or city of 50,000 people or more (GeoNames, CC BY 4.0), and the well-known ones
above where a name is in both ("london" is the one in England)."""

DEMONYMS = {
    "american": "the us", "british": "the uk", "brit": "the uk", "english": "england",
    "scottish": "scotland", "welsh": "wales", "irish": "ireland", "canadian": "canada",
    "mexican": "mexico", "brazilian": "brazil", "argentinian": "argentina",
    "argentine": "argentina", "chilean": "chile", "colombian": "colombia", "peruvian": "peru",
    "venezuelan": "venezuela", "cuban": "cuba", "french": "france", "german": "germany",
    "dutch": "the netherlands", "belgian": "belgium", "swiss": "switzerland",
    "austrian": "austria", "italian": "italy", "spanish": "spain", "portuguese": "portugal",
    "greek": "greece", "turkish": "turkey", "polish": "poland", "czech": "czechia",
    "hungarian": "hungary", "romanian": "romania", "ukrainian": "ukraine",
    "russian": "russia", "swedish": "sweden", "norwegian": "norway", "danish": "denmark",
    "finnish": "finland", "icelandic": "iceland", "nigerian": "nigeria",
    "ghanaian": "ghana", "kenyan": "kenya", "ethiopian": "ethiopia", "egyptian": "egypt",
    "moroccan": "morocco", "south african": "south africa", "indian": "india",
    "pakistani": "pakistan", "bangladeshi": "bangladesh", "chinese": "china",
    "japanese": "japan", "korean": "korea", "vietnamese": "vietnam", "thai": "thailand",
    "filipino": "the philippines", "filipina": "the philippines", "indonesian": "indonesia",
    "malaysian": "malaysia", "australian": "australia", "aussie": "australia",
    "kiwi": "new zealand", "iranian": "iran", "iraqi": "iraq", "israeli": "israel",
    "lebanese": "lebanon", "saudi": "saudi arabia", "emirati": "the uae",
}  # fmt: skip
"""Where someone is from, by the word for its people: "is brazilian" is "is from brazil"."""


def is_place(name: str) -> bool:
    """Whether the tables know ``name`` as a place: a town or city, a region, a district, or
    another name of one ("nyc")."""
    name = PLACE_ALIASES.get(name, name)
    return name in CITIES or name in REGIONS or name in CITIES_OF_DISTRICT


def without_city(name: str) -> str:
    """A city's name without "city" after it ("iloilo city", "cebu city", "ho chi minh city":
    one place named either way); kept where the name alone is a country or a state ("kansas
    city", "panama city") or the tables know the whole name as one city ("mexico city")."""
    bare = name.removesuffix(" city")
    if bare == name or not bare or name in WELL_KNOWN or bare in REGIONS or bare in _within():
        return name
    return bare


@lru_cache(maxsize=1)
def _within() -> frozenset[str]:
    """Every place the towns lie in: countries, states, nations ("panama", "kuwait")."""
    return frozenset().union(*CITIES.values())


def is_place_word(word: str) -> bool:
    """Whether ``word`` is a town's name or a word of another place the tables name ("york" of
    "new york"): a place, not a typo."""
    return word in CITIES or word in CITIES_OF_DISTRICT or word in _words_of_places()


@lru_cache(maxsize=1)
def _words_of_places() -> frozenset[str]:
    """The words of every name but the towns of one word (looked up in ``CITIES`` itself)."""
    names = {*PLACE_ALIASES, *PLACE_ALIASES.values(), *REGIONS, *DISTRICTS,
             *(name for name in CITIES if " " in name)}  # fmt: skip
    return frozenset(word for name in names for word in name.split())
