"""Record ids, e-mail addresses, software versions, severities and priorities.

Ids are normalised to the business data's canonical form, a prefix and a zero-padded number
("ord-42", "ORD42", "ORD 000042" -> "ORD-000042"). Accepted spellings:

- the prefix in any case followed by a dash, an underscore or nothing: "ORD-42", "ord_42",
  "Ord42";
- the prefix in capitals, a space, then the number: "ORD 42" (lower case "ord 42" is not taken:
  too close to ordinary words, "inc 5");
- the record's noun with "#", "no." or "number": "order #42", "incident number 13",
  "ticket no. 7" (a bare "order 20 chairs" is an order of chairs, not ORD-000020).

Versions: a number after "version" ("version 3"), a dotted one after "release" or "ver"
("release 3.2", not "release 3 invoices"), "v" and a dotted number ("v2.14"), a number with
three or more parts ("2.14.0", "1.4.2-rc1"; not a date such as "14.12.2026" nor thousands,
"1.200.000"), a commit hash after "commit" or "sha" ("commit a1b2c3d"), the latest build of a
branch ("the latest main build").

Severities: "sev 2", "SEV-1", "sev1", "severity 3", "severity: two", "critical severity" (sev1)
... "low severity" (sev4), and "P1".."P4" when the request is about an incident or an outage;
without a number, an incident "for everyone", a "full outage" or "nobody can ..." is sev1.
Priorities: "urgent", "ASAP", "high priority", "priority: low", "no rush" (low), "P1".."P4"
(urgent, high, normal, low) otherwise. A negation just before ("not urgent", "it isn't a sev1",
"non-urgent") sets ``negated``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from .facts import EmailFact, IdFact, LevelFact, VersionFact
from .text import Analysis, negated_before

# prefix -> (kind, digits in the canonical form)
ID_KINDS: dict[str, tuple[str, int]] = {
    "CUS": ("customer", 5),
    "ORD": ("order", 6),
    "INV": ("invoice", 6),
    "INC": ("incident", 5),
    "TCK": ("ticket", 6),
    "EMP": ("employee", 5),
    "CTR": ("contract", 5),
    "VEN": ("vendor", 4),
    "EXP": ("expense", 5),
    "CAN": ("candidate", 5),
    "SKU": ("product", 5),
    "AST": ("asset", 5),
    "CAR": ("rental car", 5),
}
# Other prefixes people type for the same kinds of record, from their own systems: a support
# case "CS-48812" or "CASE-7731" is a ticket, a sales order "SO-1188" an order.
ID_ALIASES: dict[str, str] = {"CS": "TCK", "CASE": "TCK", "SR": "TCK", "TKT": "TCK", "SO": "ORD"}
# The nouns that may name a record by number ("order #42").
_ID_NOUNS: dict[str, str] = {
    "customer": "CUS",
    "order": "ORD",
    "invoice": "INV",
    "incident": "INC",
    "ticket": "TCK",
    "employee": "EMP",
    "contract": "CTR",
    "vendor": "VEN",
    "expense": "EXP",
    "candidate": "CAN",
    "sku": "SKU",
    "asset": "AST",
}
# Longest first, so that "CASE" is not read as "CAS" and a rest.
_PREFIXES = "|".join(sorted([*ID_KINDS, *ID_ALIASES], key=len, reverse=True))
_ID_RE = re.compile(
    rf"(?<![\w-])(?:(?i:({_PREFIXES}))[-_]?(\d{{1,9}})|({_PREFIXES}) (\d{{1,9}}))(?![\w-])"
)
_NOUN_ID_RE = re.compile(
    rf"(?<![\w-])({'|'.join(_ID_NOUNS)})s?\s*(?:#\s*|no\.?\s*|number\s+|nr\.?\s*)(\d{{1,9}})(?!\w)",
    re.IGNORECASE,
)

_VERSION_TAIL = r"(?:-[0-9A-Za-z]+(?:\.[0-9A-Za-z]+)*)?(?![\w-]|\.\w)"
_VERSION_RE = re.compile(
    rf"\b(?i:version)\s+(v?\d+(?:\.\d+){{0,3}}{_VERSION_TAIL})"
    rf"|\b(?i:release|ver\.?)\s+(v?\d+(?:\.\d+){{1,3}}{_VERSION_TAIL})"
    rf"|(?<![\w.])(v\d+(?:\.\d+){{1,3}}{_VERSION_TAIL})"
    rf"|(?<![\w.$€£¥])(\d+\.\d+\.\d+(?:\.\d+)?{_VERSION_TAIL})"
    r"|\b(?i:commit|sha)\s+([0-9a-f]{7,40})\b"
    r"|\b(?i:the\s+)?((?i:latest\s+(?:main|master|trunk|develop)\s+build))\b"
)
# Read as something else: a date ("14.12.2026") or thousands ("1.200.000").
_NOT_A_VERSION_RE = re.compile(r"\d{1,2}\.\d{1,2}\.\d{4}|\d{1,3}(?:\.\d{3})+")

_EMAIL_RE = re.compile(r"(?<![\w.+-])[\w.+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}\b")

_LEVEL_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4}
_SEV_RE = re.compile(
    r"\b(?:sev(?:erity)?(?:\s+level)?)\s*[-:=]?\s*(?:is\s+)?([1-4]|one|two|three|four)\b"
    r"|\b(critical|high|medium|moderate|low)[\s-]+severity\b"
    r"|\bseverity(?:\s+is)?\s*[-:=]?\s*(critical|high|medium|moderate|low)\b",
    re.IGNORECASE,
)
_SEV_WORDS = {"critical": 1, "high": 2, "medium": 3, "moderate": 3, "low": 4}
_P_LEVEL_RE = re.compile(r"\bP([1-4])\b")
_INCIDENT_RE = re.compile(
    r"\b(?:incident|outage|sev|severity|down|degraded|breach|postmortem)\w*", re.IGNORECASE
)
_FULL_OUTAGE_RE = re.compile(
    r"\bfor (?:everyone|everybody|all (?:customers|users|clients))\b"
    r"|\b(?:full|total|complete) outage\b|\b(?:completely|totally|entirely) down\b"
    r"|\b(?:nobody|no one|no customer|no user) can\b",
    re.IGNORECASE,
)
_P_PRIORITIES = {1: "urgent", 2: "high", 3: "normal", 4: "low"}

_PRIORITY_RE = re.compile(
    r"\b(?:(?P<level>low|normal|medium|high|top|highest|critical|urgent)[\s-]+prio(?:rity)?\b"
    r"|prio(?:rity)?(?:\s+is)?\s*[-:=]?\s*(?P<level2>low|normal|medium|high|urgent|critical)\b"
    r"|(?P<urgent>urgent(?:ly)?|asap|as\s+soon\s+as\s+possible|immediately|right\s+away"
    r"|emergency|top\s+priority)\b"
    r"|(?P<low>no\s+rush|no\s+hurry|whenever\s+(?:you\s+can|convenient|possible)"
    r"|when(?:ever)?\s+you\s+(?:get|have)\s+(?:a\s+)?(?:chance|time|a\s+moment)))",
    re.IGNORECASE,
)
_PRIORITY_WORDS = {
    "low": "low",
    "normal": "normal",
    "medium": "normal",
    "high": "high",
    "top": "urgent",
    "highest": "urgent",
    "critical": "urgent",
    "urgent": "urgent",
}


def canonical_id(prefix: str, number: int) -> str:
    """ "ord", 42 -> "ORD-000042" (a number wider than the padding keeps all its digits)."""
    prefix = prefix.upper()
    return f"{prefix}-{number:0{ID_KINDS[prefix][1]}d}"


def find_ids(analysis: Analysis) -> Iterator[IdFact]:
    text = analysis.text
    for m in _ID_RE.finditer(text):
        prefix = (m.group(1) or m.group(3)).upper()
        prefix = ID_ALIASES.get(prefix, prefix)
        number = int(m.group(2) or m.group(4))
        analysis.claim(m.start(), m.end())
        yield IdFact(canonical_id(prefix, number), ID_KINDS[prefix][0], number, m.group(), m.span())
    for m in _NOUN_ID_RE.finditer(text):
        if not analysis.is_free(m.start(), m.end()):
            continue
        prefix = _ID_NOUNS[m.group(1).lower()]
        number = int(m.group(2))
        analysis.claim(m.start(), m.end())
        yield IdFact(canonical_id(prefix, number), ID_KINDS[prefix][0], number, m.group(), m.span())


def find_emails(analysis: Analysis) -> Iterator[EmailFact]:
    for m in _EMAIL_RE.finditer(analysis.text):
        analysis.claim(m.start(), m.end())
        yield EmailFact(m.group().lower(), m.group(), m.span())


def find_versions(analysis: Analysis) -> Iterator[VersionFact]:
    for m in _VERSION_RE.finditer(analysis.text):
        version = m.group(m.lastindex or 0)  # the one alternative that matched
        if not analysis.is_free(m.start(), m.end()) or _NOT_A_VERSION_RE.fullmatch(version):
            continue
        analysis.claim(m.start(), m.end())
        yield VersionFact(version, m.group(), m.span())


def find_levels(analysis: Analysis) -> tuple[list[LevelFact], list[LevelFact]]:
    """(severities, priorities) in text order."""
    text = analysis.text
    severities: list[LevelFact] = []
    priorities: list[LevelFact] = []
    for m in _SEV_RE.finditer(text):
        if not analysis.is_free(m.start(), m.end()):
            continue
        raw = (m.group(1) or "").lower()
        number = (
            int(raw)
            if raw.isdigit()
            else _LEVEL_WORDS.get(raw) or _SEV_WORDS[(m.group(2) or m.group(3)).lower()]
        )
        analysis.claim(m.start(), m.end())
        severities.append(
            LevelFact(f"sev{number}", m.group(), m.span(), negated_before(analysis, m.start()))
        )
    incident = bool(_INCIDENT_RE.search(text))
    for m in _P_LEVEL_RE.finditer(text):
        if not analysis.is_free(m.start(), m.end()):
            continue
        number = int(m.group(1))
        analysis.claim(m.start(), m.end())
        fact = LevelFact(
            f"sev{number}" if incident else _P_PRIORITIES[number],
            m.group(),
            m.span(),
            negated_before(analysis, m.start()),
        )
        (severities if incident else priorities).append(fact)
    for m in _PRIORITY_RE.finditer(text):
        if not analysis.is_free(m.start(), m.end()):
            continue
        if m.group("urgent"):
            level = "urgent"
        elif m.group("low"):
            level = "low"
        else:
            level = _PRIORITY_WORDS[(m.group("level") or m.group("level2")).lower()]
        analysis.claim(m.start(), m.end())
        negated = negated_before(analysis, m.start()) or _non_prefixed(text, m.start())
        priorities.append(LevelFact(level, m.group(), m.span(), negated))
    full = _FULL_OUTAGE_RE.search(text) if incident and not severities else None
    if full and not negated_before(analysis, full.start()):
        # Said without a number: a customer-facing service down for everyone is what sev1 is.
        severities.append(LevelFact("sev1", full.group(), full.span()))
    severities.sort(key=lambda f: f.span)
    priorities.sort(key=lambda f: f.span)
    return severities, priorities


def _non_prefixed(text: str, start: int) -> bool:
    """ "non-urgent", "non urgent"."""
    return text[max(0, start - 4) : start].lower() in ("non-", "non ")
