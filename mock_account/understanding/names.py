"""Organisations, people and other named things: known names of the business data, and
capitalised names that match none.

`NameIndex` is built once from ``{kind: names}`` ("customer" -> ["Riddle Logistics Inc.", ...]).
A known name matches whole words, in any case, with or without its legal form ("Riddle
Logistics" finds "Riddle Logistics Inc."; "riddle logistics ltd" too), a plural for products
("20 Aero Office Chairs" finds "Aero Office Chair"), and on its first word alone when that word
is capitalised and belongs to that one name only ("the Riddle account" finds it, as a partial
match).

A capitalised run that matches no known name is still reported, with ``known=False``, when it
looks like a name:

- an organisation when it ends with a legal form or an industry word ("Hoffmann Logistics",
  "Acme GmbH"), or when a cue word stands next to it ("the account for Hoffmann", "customer
  Hoffmann", "the Hoffmann account");
- a person when it starts with a common given name and has one or two more capitalised words
  ("Anna Schmidt"), follows a title or a role ("Dr Weber", "candidate Okafor"), or is followed
  by a verb of joining or leaving ("Kwame Varga joins us").

Words that start a request ("Book", "Pull", "Please") and other function words are dropped from
the front of a run; places, dates and ids were claimed before and split runs.
"""

from __future__ import annotations

import difflib
import re
import threading
from collections import OrderedDict
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from .facts import ORGANISATION_KINDS, PERSON_KINDS, NameFact
from .lexicon import (
    DOTTED_LEGAL_FORMS,
    FUNCTION_WORDS,
    GIVEN_NAME_CUES_AFTER,
    GIVEN_NAME_VERBS,
    HIRING_VERBS,
    INDUSTRY_WORDS,
    LEGAL_FORMS,
    MONTH_WORDS,
    NAME_CONNECTORS,
    ORG_CUES_AFTER,
    ORG_CUES_BEFORE,
    ORG_CUES_BEFORE_WITH,
    PERSON_CUES_AFTER,
    PERSON_CUES_BEFORE,
    PERSON_VERBS,
    REQUEST_WORDS,
    WEEKDAY_WORDS,
)
from .text import WORD_RE, Analysis, fold

_MAX_WORDS = 8
_TITLES = frozenset({"mr", "mrs", "ms", "miss", "dr", "prof", "mister"})
_LOWER_CASE_LEGAL_FORMS = frozenset({"plc", "ltd", "inc", "llc", "gmbh", "corp"})
# Words before a lone given name that make it a person ("a call with Anna", "ask Tom").
_PERSON_PREPOSITIONS = frozenset({"with", "for", "from", "by", "and"}) | PERSON_VERBS
_LONE_NAME_CUES_AFTER = PERSON_CUES_AFTER | GIVEN_NAME_CUES_AFTER
# Between two words of one name: spaces, a hyphen, "&", a comma ("Smith, Jones and Brown"), or
# the dot of an abbreviation ("Inc. ", "S.A.").
# Prepositions after which a name of several capitalised words is a company's ("a charge from
# Brixton Parcel Hub"); a title of a role or a team is said with other words.
_ORG_PREPOSITIONS = frozenset({"at", "from", "for", "with", "by", "of"})
# Capitalised words that make a run a title or a team rather than a company ("the Senior
# Software Engineer opening", "Regional Marketing").
_ORDINARY_CAPITALISED = frozenset(
    """
    senior junior lead head chief principal staff software data product marketing sales finance
    engineering regional global team department manager engineer analyst director officer
    """.split()
)
_COUNT_WORDS = frozenset(
    "two three four five six seven eight nine ten eleven twelve twenty thirty fifty hundred".split()
)
_GAP_RE = re.compile(r"\s*(?:[-&,/]|\.)?\s*")


@dataclass(frozen=True, slots=True)
class KnownName:
    kind: str
    name: str
    exact: bool  # the variant is the whole name, legal form included
    partial: bool  # only the first word of the name
    single: bool  # one word: needs a capital in the text


class NameIndex:
    """Known names by the folded words of their variants; build once per set of names."""

    def __init__(self, names: Mapping[str, Iterable[str]]) -> None:
        self.names: dict[str, tuple[str, ...]] = {
            kind: tuple(dict.fromkeys(str(n).strip() for n in values if str(n).strip()))
            for kind, values in names.items()
        }
        variants: dict[tuple[str, ...], list[KnownName]] = {}

        def add(key: tuple[str, ...], known: KnownName) -> None:
            if key and len(key) <= _MAX_WORDS:
                variants.setdefault(key, []).append(known)

        # first word -> the names (without legal form) that start with it, and their owners
        heads: dict[str, dict[tuple[str, ...], list[tuple[str, str]]]] = {}
        for kind, values in self.names.items():
            for name in values:
                key = tuple(fold(w) for w in WORD_RE.findall(name))
                if not key:
                    continue
                add(key, KnownName(kind, name, True, False, len(key) == 1))
                bare = _strip_legal_form(key)
                if bare != key and bare:
                    add(bare, KnownName(kind, name, False, False, len(bare) == 1))
                if kind not in ORGANISATION_KINDS and kind not in PERSON_KINDS:
                    plural = (*key[:-1], _plural(key[-1]))
                    add(plural, KnownName(kind, name, False, False, len(key) == 1))
                owners = heads.setdefault(key[0], {}).setdefault(bare, [])
                if len(bare) >= 2 and kind in ORGANISATION_KINDS:
                    owners.append((kind, name))
        for head, by_name in heads.items():
            # "Riddle" for "Riddle Logistics" when no other name starts with (or is) "Riddle"
            # (the same company as a customer and a vendor counts once), and the word is not a
            # place, a given name or an ordinary word of requests.
            if (
                len(by_name) == 1
                and len(head) >= 4
                and (head,) not in variants
                and head not in FUNCTION_WORDS
                and head not in REQUEST_WORDS
                and head not in INDUSTRY_WORDS
                and not _is_place_or_given_name(head)
            ):
                for kind, name in next(iter(by_name.values())):
                    add((head,), KnownName(kind, name, False, True, True))
        self.variants: dict[tuple[str, ...], tuple[KnownName, ...]] = {
            key: tuple(sorted(v, key=lambda k: (not k.exact, k.partial)))
            for key, v in variants.items()
        }
        self.longest: dict[str, int] = {}
        for key in self.variants:
            self.longest[key[0]] = max(self.longest.get(key[0], 0), len(key))

    def closest(self, text: str, kind: str | None = None, limit: int = 3) -> list[str]:
        """The known names nearest to `text` (for "no customer by that name; did you mean")."""
        pool = [n for k, values in self.names.items() if kind in (None, k) for n in values]
        folded = {fold(" ".join(WORD_RE.findall(n))): n for n in pool}
        target = fold(" ".join(WORD_RE.findall(text)))
        matches = difflib.get_close_matches(target, list(folded), n=limit, cutoff=0.5)
        return [folded[m] for m in matches]


def _is_place_or_given_name(word: str) -> bool:
    from .places import gazetteer

    g = gazetteer()
    return word in g.given_names or g.entry((word,)) is not None


def _strip_legal_form(key: tuple[str, ...]) -> tuple[str, ...]:
    """("riddle", "logistics", "inc") -> ("riddle", "logistics"); also "S.A.", "B.V."."""
    changed = True
    while changed and len(key) > 1:
        changed = False
        for form in DOTTED_LEGAL_FORMS:
            if len(key) > len(form) and key[-len(form) :] == form:
                key, changed = key[: -len(form)], True
        if len(key) > 1 and key[-1] in LEGAL_FORMS:
            key, changed = key[:-1], True
    return key


def _plural(word: str) -> str:
    if word.endswith("y") and len(word) > 2 and word[-2] not in "aeiou":
        return word[:-1] + "ies"
    if word.endswith(("s", "x", "z", "ch", "sh")):
        return word + "es"
    return word + "s"


# A few index objects per process, by the identity of the mapping they were built from.
_INDEXES: OrderedDict[int, tuple[Mapping[str, Iterable[str]], NameIndex]] = OrderedDict()
_INDEX_LOCK = threading.Lock()
_INDEX_SLOTS = 16


def name_index(names: Mapping[str, Iterable[str]] | NameIndex) -> NameIndex:
    """The index for `names`, built on the first call with that mapping object and reused after.

    The cache is keyed by the mapping's identity: a mapping changed in place after its first use
    is not seen again; pass a new mapping (or build a `NameIndex` and pass that)."""
    if isinstance(names, NameIndex):
        return names
    key = id(names)
    with _INDEX_LOCK:
        cached = _INDEXES.get(key)
        if cached is not None and cached[0] is names:
            _INDEXES.move_to_end(key)
            return cached[1]
    index = NameIndex(names)
    with _INDEX_LOCK:
        _INDEXES[key] = (names, index)
        while len(_INDEXES) > _INDEX_SLOTS:
            _INDEXES.popitem(last=False)
    return index


# -- known names -----------------------------------------------------------------------------


def find_known(analysis: Analysis, index: NameIndex) -> list[tuple[NameFact, str]]:
    """Known names in the text, each with its category (organisation | person | mention)."""
    words = analysis.words
    text = analysis.text
    out: list[tuple[NameFact, str]] = []
    i = 0
    while i < len(words):
        longest = index.longest.get(words[i].folded)
        if not longest:
            i += 1
            continue
        matched = 0
        for n in range(min(longest, len(words) - i), 0, -1):
            if n > 1 and not all(
                _GAP_RE.fullmatch(text[words[k].end : words[k + 1].start])
                and _same_sentence(analysis, k)
                for k in range(i, i + n - 1)
            ):
                continue
            found = index.variants.get(tuple(words[k].folded for k in range(i, i + n)))
            if not found:
                continue
            start, end = words[i].start, words[i + n - 1].end
            if not analysis.is_free(start, end):
                continue
            if n == 1 and not words[i].capitalised:
                continue
            # A possessive starting a sentence is a name ("Brightwater's parcel").
            possessive = text[words[i].end : words[i].end + 2] in ("'s", "’s")
            if found[0].partial and (
                (words[i].sentence_start and not possessive)
                or _name_follows(analysis, i)
                or _name_precedes(analysis, i)
            ):
                # "Hoffmann Logistics" is not "Hoffmann Media" on its first word, nor is
                # "Amelia Brennan" the company "Brennan Software".
                continue
            if _name_follows(analysis, i + n - 1) and words[i + n].folded in INDUSTRY_WORDS:
                break  # "Smith Foods Logistics" is another company than "Smith Foods"
            if _other_company(analysis, found[0], i + n):
                break  # "Acme Widgets GmbH" is not "Acme Corporation" on its bare "Acme"
            if _other_person(analysis, found[0], i + n):
                break  # "Chen Wei Ling" is not the candidate "Chen Wei"
            # Every known name of the best kind of match (exact ones before stripped ones).
            best = [k for k in found if (k.exact, k.partial) == (found[0].exact, found[0].partial)]
            for known in best:
                fact = NameFact(
                    text[start:end], (start, end), True, known.name, known.kind, known.partial
                )
                out.append((fact, _category(known.kind)))
            analysis.claim(start, end)
            matched = n
            break
        i += matched or 1
    return out


def _other_company(analysis: Analysis, known: KnownName, after: int) -> bool:
    """Whether a company's name without its legal form goes on, at word `after`, with a word
    that is no legal form of it, no place ("Smith Foods Berlin") and not claimed before (a
    date): the name of another company that starts the same way."""
    if known.exact or known.partial or known.kind not in ORGANISATION_KINDS:
        return False
    if not _name_follows(analysis, after - 1):
        return False
    word = analysis.words[after]
    if word.folded in LEGAL_FORMS or not analysis.is_free(word.start, word.end):
        return False
    from .places import gazetteer

    return gazetteer().entry((word.folded,)) is None


def _other_person(analysis: Analysis, known: KnownName, after: int) -> bool:
    """Whether a person's full name goes on, at word `after`, with a capitalised word of the
    same name: the name of someone else ("Chen Wei Ling" after the known "Chen Wei")."""
    if known.kind not in PERSON_KINDS or not _name_follows(analysis, after - 1):
        return False
    word = analysis.words[after]
    return analysis.is_free(word.start, word.end) and word.folded not in REQUEST_WORDS


def _name_follows(analysis: Analysis, i: int) -> bool:
    """Whether a capitalised word follows word `i` as part of the same name."""
    words = analysis.words
    if i + 1 >= len(words) or words[i + 1].sentence_start or not words[i + 1].capitalised:
        return False
    return bool(_GAP_RE.fullmatch(analysis.text[words[i].end : words[i + 1].start]))


def _name_precedes(analysis: Analysis, i: int) -> bool:
    """Whether word `i` continues a name: a capitalised word before it in the same sentence,
    or a given name starting the sentence ("Amelia Brennan joins us")."""
    words = analysis.words
    if i == 0 or words[i].sentence_start:
        return False
    before = words[i - 1]
    if not before.capitalised or not analysis.is_free(before.start, before.end):
        return False
    if not _GAP_RE.fullmatch(analysis.text[before.end : words[i].start]):
        return False
    if not before.sentence_start:
        return True
    return _is_place_or_given_name(before.folded) and before.folded not in GIVEN_NAME_VERBS


def _same_sentence(analysis: Analysis, k: int) -> bool:
    return not analysis.words[k + 1].sentence_start


def _category(kind: str) -> str:
    if kind in ORGANISATION_KINDS:
        return "organisation"
    if kind in PERSON_KINDS:
        return "person"
    return "mention"


# -- unknown names ---------------------------------------------------------------------------


def _runs(analysis: Analysis) -> list[tuple[int, int]]:
    """Runs of free capitalised words (with connectors inside), as (first, end) word indexes."""
    words = analysis.words
    text = analysis.text
    runs: list[tuple[int, int]] = []
    i = 0
    while i < len(words):
        if not _name_word(analysis, i):
            i += 1
            continue
        j = i + 1
        while j < len(words) and not words[j].sentence_start:
            gap_ok = _GAP_RE.fullmatch(text[words[j - 1].end : words[j].start])
            if not gap_ok or not analysis.is_free(words[j].start, words[j].end):
                break
            if _name_word(analysis, j):
                j += 1
            elif (
                words[j].folded in NAME_CONNECTORS
                and j + 1 < len(words)
                and _name_word(analysis, j + 1)
                and not words[j + 1].sentence_start
            ):
                j += 2
            elif _written_legal_form(words[j].text):  # "Acme plc"
                j += 1
                break
            else:
                break
        runs.append((i, j))
        i = j
    return runs


def _written_legal_form(word: str) -> bool:
    """A legal form as companies write it: "GmbH", "AS", "plc"; not the words "as" or "co"."""
    folded = word.casefold()
    return folded in LEGAL_FORMS and (not word.islower() or folded in _LOWER_CASE_LEGAL_FORMS)


def _name_word(analysis: Analysis, i: int) -> bool:
    w = analysis.words[i]
    return (
        w.capitalised
        and w.text[0].isalpha()
        and analysis.is_free(w.start, w.end)
        and (w.folded not in MONTH_WORDS or _given_name_like_a_month(analysis, i))
        and w.folded not in WEEKDAY_WORDS
    )


def _given_name_like_a_month(analysis: Analysis, i: int) -> bool:
    """ "Jun Park", "May Tan": a month's name before a family name, with no day beside it."""
    words = analysis.words
    if i + 1 >= len(words) or words[i + 1].sentence_start:
        return False
    after, before = words[i + 1], words[i - 1] if i > 0 else None
    return (
        after.capitalised
        and after.text.isalpha()
        and after.folded not in MONTH_WORDS
        and after.folded not in WEEKDAY_WORDS
        and not (before is not None and before.text[:1].isdigit())
    )


def _trim(analysis: Analysis, first: int, end: int) -> tuple[int, int]:
    words = analysis.words
    if (
        end - first >= 3
        and words[first].sentence_start
        and words[first].folded in GIVEN_NAME_VERBS
        and _is_org_end(analysis, first + 1, end)
    ):
        first += 1  # "Bill Tessaline Optics for 40 hours": the verb, then the company
    while first < end and (
        words[first].folded in FUNCTION_WORDS
        or words[first].folded in REQUEST_WORDS
        or words[first].folded in NAME_CONNECTORS
        or (len(words[first].text) == 1 and words[first].text != "&")
    ):
        first += 1
    while end > first and words[end - 1].folded in NAME_CONNECTORS:
        end -= 1
    return first, end


def _is_org_end(analysis: Analysis, first: int, end: int) -> bool:
    """The run ends with a legal form or an industry word, after a word that is neither."""
    words = analysis.words
    keys = tuple(w.folded for w in words[first:end])
    if len(keys) < 2:
        return False
    bare = _strip_legal_form(keys)
    if bare != keys:
        return len(bare) >= 1 and not all(k in INDUSTRY_WORDS for k in bare)
    return keys[-1] in INDUSTRY_WORDS and not all(k in INDUSTRY_WORDS for k in keys)


def find_organisations_by_form(analysis: Analysis) -> list[NameFact]:
    """Unknown organisations named with a legal form or an industry word ("Hoffmann
    Logistics"): found before places, so "Berlin Logistics" is not Berlin."""
    out: list[NameFact] = []
    for first, end in _runs(analysis):
        first, end = _trim(analysis, first, end)
        if end - first >= 2 and _is_org_end(analysis, first, end):
            out.append(_unknown(analysis, first, end))
    return out


# Words after a city that make it a place still ("the Shenzhen office", "Berlin Airport").
_PLACE_FOLLOWERS = frozenset(
    """
    office offices site plant lab warehouse factory store branch depot hub headquarters hq team
    airport station hotel campus port area region city centre center trip visit conference
    """.split()
)


def find_organisations_named_after_places(
    analysis: Analysis, places: list[Any]
) -> tuple[list[NameFact], list[Any]]:
    """Companies named after their city ("PO-778120 from Shenzhen Voltcell"): a city and an
    unknown capitalised word right after it, after a word that introduces a party (from, at,
    with, for, by). The city is then no place of the request."""
    words = analysis.words
    orgs: list[NameFact] = []
    kept: list[Any] = []
    for place in places:
        i = analysis.word_index_at(place.span[1])
        start = analysis.word_index_at(place.span[0])
        before = words[start - 1].folded if start > 0 else ""
        if (
            place.kind == "city"
            and i < len(words)
            and before in _ORG_PREPOSITIONS
            and _name_word(analysis, i)
            and not words[i].sentence_start
            and analysis.text[place.span[1] : words[i].start] == " "
            and words[i].folded not in _PLACE_FOLLOWERS
            and words[i].folded not in FUNCTION_WORDS
            and words[i].folded not in REQUEST_WORDS
        ):
            last = i
            while last + 1 < len(words) and last - i < 2 and _name_word(analysis, last + 1):
                if analysis.text[words[last].end : words[last + 1].start] != " ":
                    break
                last += 1  # "London Parcel Hub"
            end = words[last].end
            analysis.claim(place.span[0], end)
            orgs.append(NameFact(analysis.text[place.span[0] : end], (place.span[0], end), False))
            continue
        kept.append(place)
    return orgs, kept


# A person named by the role they take: "owner is Farid Hassan", "approver: Mei Tan". Read
# before places, so a family name that is also a town ("Hassan") stays the person's.
_IN_A_ROLE = re.compile(
    r"\b(?:owner|contact|approver|assignee|reviewer|interviewer|sponsor|requester|buddy|mentor"
    r"|manager|lead)\s+(?:is|will\s+be|should\s+be|[:=])\s+"
    r"(?P<name>[A-Z][a-z]+(?:[-'][A-Z]?[a-z]+)?(?:\s+[A-Z][a-z]+(?:[-'][A-Z]?[a-z]+)?){1,2})\b"
)


def find_people_in_roles(analysis: Analysis) -> Iterator[NameFact]:
    """People said with the role they take ("the owner is Farid Hassan")."""
    for m in _IN_A_ROLE.finditer(analysis.text):
        start, end = m.span("name")
        if analysis.is_free(start, end):
            analysis.claim(start, end)
            yield NameFact(m.group("name"), (start, end), False)


def find_unknown_names(
    analysis: Analysis, given_names: frozenset[str]
) -> tuple[list[NameFact], list[NameFact]]:
    """(organisations, people) among the capitalised runs still free after places and dates."""
    words = analysis.words
    orgs: list[NameFact] = []
    people: list[NameFact] = []
    for run_first, run_end in _runs(analysis):
        first, end = _trim(analysis, run_first, run_end)
        # Organisations named with "and" were taken before; what is left is a list ("Anna
        # Schmidt and Tom Becker", "Aisha Rahman, Tom Keller and Jun Park"), one name per part.
        parts: list[tuple[int, int]] = []
        cut = first
        for k in range(first, end + 1):
            if k == end or words[k].folded == "and":
                parts.append((cut, k))
                cut = k + 1
            elif k > cut and "," in analysis.text[words[k - 1].end : words[k].start]:
                parts.append((cut, k))
                cut = k
        found = len(people)
        unread = []
        for part in parts:
            before = len(orgs) + len(people)
            _classify(analysis, given_names, *part, orgs, people)
            if len(orgs) + len(people) == before:
                unread.append(part)
        if len(people) > found and len(parts) > 1:
            # A name in a list of people is a person's, though its given name is unknown here.
            for first_word, end_word in unread:
                if 2 <= end_word - first_word <= 3 and not _is_org_end(
                    analysis, first_word, end_word
                ):
                    people.append(_unknown(analysis, first_word, end_word))
    return orgs, people


# Verbs right after a name that open news of it ("Halcyon Print has a new contact").
_NEWS_VERBS = frozenset(
    """
    has have had is was wants needs asked called emailed sent says said moved merged billed
    """.split()
)


def _classify(
    analysis: Analysis,
    given_names: frozenset[str],
    first: int,
    end: int,
    orgs: list[NameFact],
    people: list[NameFact],
) -> None:
    words = analysis.words
    if end - first >= 2 and words[first].folded in _TITLES and not words[first].text.isupper():
        first += 1  # "Dr Weber": the title is a cue, not part of the name ("MS Project" is not)
    if first >= end:
        return
    prev = words[first - 1].folded if first > 0 else ""
    prev2 = words[first - 2].folded if first > 1 else ""
    nxt = words[end].folded if end < len(words) else ""
    # A count before a name makes it a thing counted ("250 Herman Miller Sayl chairs").
    counted = first > 0 and (words[first - 1].text.isdigit() or prev in _COUNT_WORDS)
    if prev in PERSON_CUES_BEFORE and end - first <= 3 and not words[first - 1].text.isupper():
        # "Dr Weber", "candidate Okafor", "my colleague Nguyen Thi Lan": the whole name after
        # the cue, whichever part of it is a given name.
        people.append(_unknown(analysis, first, end))
        return
    # A person: a given name and a family name or two.
    for k in range(first, end - 1):
        if counted:
            break
        if words[k].folded in given_names and 2 <= end - k <= 3:
            # A model's number is no family name: "Aurora X2" is a product.
            if any(any(c.isdigit() for c in w.text) for w in words[k:end]):
                break
            if not any(w.folded in INDUSTRY_WORDS or w.folded in LEGAL_FORMS for w in words[k:end]):
                people.append(_unknown(analysis, k, end))
                return
    if nxt in PERSON_CUES_AFTER and 2 <= end - first <= 3 and not _is_org_end(analysis, first, end):
        people.append(_unknown(analysis, first, end))  # "Kwame Varga joins us"
    elif (
        words[first].sentence_start
        and nxt in _NEWS_VERBS
        and 2 <= end - first <= 4
        and not all(w.folded in _ORDINARY_CAPITALISED for w in words[first:end])
    ):
        # "Halcyon Print has a new account manager": a name of two words or more that opens
        # news of itself, and of no person (given names were read above), is a company's.
        orgs.append(_unknown(analysis, first, end))
    elif (
        prev in HIRING_VERBS | PERSON_VERBS
        and 2 <= end - first <= 3
        and not _is_org_end(analysis, first, end)
    ):
        # "we hired Kwame Varga", "ring Farid Hassan back": done to people, whatever the
        # given name.
        people.append(_unknown(analysis, first, end))
    elif end - first == 1 and words[first].folded in given_names and prev in _PERSON_PREPOSITIONS:
        people.append(_unknown(analysis, first, end))  # "a call with Anna"
    elif end - first == 1 and words[first].folded in given_names and nxt in _LONE_NAME_CUES_AFTER:
        people.append(_unknown(analysis, first, end))  # "Ravi mentioned he might be free"
    elif (
        prev in ORG_CUES_BEFORE
        or (prev in ("for", "of", "with") and prev2 in ORG_CUES_BEFORE)
        or (prev == "with" and prev2 in ORG_CUES_BEFORE_WITH)
        or nxt in ORG_CUES_AFTER
    ) and end - first <= 5:
        orgs.append(_unknown(analysis, first, end))
    elif (
        prev in _ORG_PREPOSITIONS
        and 2 <= end - first <= 4
        and not words[first].sentence_start
        and not all(w.folded in _ORDINARY_CAPITALISED for w in words[first:end])
    ):
        # "a site visit at Kibo Agritech", "a charge from Brixton Parcel Hub": a name of two or
        # more capitalised words after a preposition, and of no person (given names were read
        # above), is a company's.
        orgs.append(_unknown(analysis, first, end))


def _unknown(analysis: Analysis, first: int, end: int) -> NameFact:
    start, stop = analysis.words[first].start, analysis.words[end - 1].end
    analysis.claim(start, stop)
    return NameFact(analysis.text[start:stop], (start, stop), False)
