"""Named things a request states besides dates, amounts, places, people and record ids.

A prospect types what only they know, and an answer that drops it reads as not listening:

- a **title** in quotes: a campaign "called 'Winter Ops Summit'", a subject line, a brand
  name ('Lumora');
- a **phone** number: "+1 403 555 0187", "(020) 7946 0000";
- a **code**: an identifier of a system the account does not model, by its shape: a prefix
  and a number ("CC-4410", "PO-88213", "PAY-2291"), a flight number after "flight" ("SQ 322"),
  a company registration number ("UEN 201934567K"), a name written as code
  ("new_checkout_flow", "billing-service");
- a **product** or model: a capitalised run with a model number or an inner capital ("Dell
  U2724D", "ThinkPad X1 Carbon", "MacBook Pro 14", "iPhone 15", "NetSuite");
- a **region** or **site**: a state or province of ISO 3166-2 ("Delaware", "Johor"), a region
  of several countries ("APAC", "the EU"), a capitalised place right before a facility noun
  ("their Penang site", "the Tuas lab"), a floor ("level 12");
- a **word of a closed vocabulary**, with its category: an environment ("production"), a
  channel ("LinkedIn"), a seat, a car or cabin class, an access level ("read-only"), an
  agreement's kind ("mutual", "one-way"), a ratio ("70/30").

Each extractor claims its characters, like the others of the pipeline, so "Your 2027 freight
plan" is a title and not a year, and "iPhone 15" is a product and not the 15th.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

from .facts import ThingFact
from .lexicon import FUNCTION_WORDS, LEGAL_FORMS, MONTH_WORDS, REQUEST_WORDS, WEEKDAY_WORDS
from .text import Analysis, fold

# --- titles -----------------------------------------------------------------------------------

# Quotes around a title: straight or curly, single or double; a single straight quote must not
# be an apostrophe ("the client's 'Q4 push'": the quote opens after a space or a bracket).
_TITLE_RE = re.compile(
    # An apostrophe inside a word is no closing quote: 'What's new in 2027'.
    r"(?:(?<=^)|(?<=[\s(:,]))(?:'(?P<s>(?:[^'\n]|(?<=\w)'(?=\w)){2,80}?)'|\"(?P<d>[^\"\n]{2,80}?)\"|"
    r"‘(?P<cs>[^’\n]{2,80}?)’|“(?P<cd>[^”\n]{2,80}?)”)(?=[\s.,;:!?)]|$)"
)


# A name given without quotes: "a campaign called Winter Upgrade 2026", "a project named Atlas".
_CALLED_RE = re.compile(
    r"\b(?:called|named|titled|entitled)\s+(?P<name>[A-Z0-9][\w'&-]*(?:\s+(?:[A-Z0-9][\w'&-]*|of|and|&|the)){0,5})"
)


def find_titles(analysis: Analysis) -> Iterator[ThingFact]:
    for m in _TITLE_RE.finditer(analysis.text):
        inner = next(g for g in m.groups() if g is not None).strip()
        if not inner or not analysis.is_free(m.start(), m.end()):
            continue
        analysis.claim(m.start(), m.end())
        yield ThingFact("title", inner, m.group(), m.span())
    for m in _CALLED_RE.finditer(analysis.text):
        name = re.sub(r"\s+(?:of|and|&|the)$", "", m.group("name"))
        start, end = m.start("name"), m.start("name") + len(name)
        if not analysis.is_free(start, end):
            continue
        analysis.claim(start, end)
        yield ThingFact("title", name, name, (start, end))


# --- phone numbers ----------------------------------------------------------------------------

# An international or a bracketed trunk prefix, then groups of digits: at least eight digits in
# all, so neither a year nor an amount is one. After an international prefix, the subscriber
# number may be one group ("+65 91234567").
_PHONE_RE = re.compile(
    r"(?<![\w+])(?:(?:\+\d{1,3}[\s.-]?|\(\d{2,5}\)\s?)?\d{2,5}(?:[\s.-]\d{2,5}){1,4}"
    r"|\+\d{1,3}[\s.-]?\d{6,12})(?!\w)"
)
_PHONE_CUE_RE = re.compile(
    r"\b(?:call|phone|tel|telephone|mobile|cell|number|ring|reach|whatsapp|fax)\b\W*(?:\w+\W+)?$",
    re.IGNORECASE,
)
_ISO_DATE_RE = re.compile(r"\d{4}-\d{2}-\d{2}")


def find_phones(analysis: Analysis) -> Iterator[ThingFact]:
    text = analysis.text
    for m in _PHONE_RE.finditer(text):
        raw = m.group()
        digits = sum(c.isdigit() for c in raw)
        cued = raw.startswith(("+", "(")) or _PHONE_CUE_RE.search(
            text[max(0, m.start() - 20) : m.start()]
        )
        if _ISO_DATE_RE.search(raw):
            continue
        if digits < 8 or digits > 15 or not cued or not analysis.is_free(m.start(), m.end()):
            continue
        analysis.claim(m.start(), m.end())
        yield ThingFact("phone", " ".join(raw.split()), raw, m.span())


# --- street addresses -------------------------------------------------------------------------

# A street and its number, with the postcode after it when given ("Hafenstrasse 12, 20457",
# "221B Baker Street", "12 Marina Boulevard"); the city after it is a place of its own.
_STREET_WORDS = (
    r"Street|St\.?|Road|Rd\.?|Avenue|Ave\.?|Lane|Ln\.?|Drive|Boulevard|Blvd\.?|Way|Place"
    r"|Court|Crescent|Close|Terrace|Square|Parade|Quay|Walk"
)
_ADDRESS_RE = re.compile(
    r"(?<![\w-])(?:"
    r"[A-ZÄÖÜ][\wäöüß-]*(?:strasse|straße|str\.|weg|gasse|platz|allee|damm|laan|straat"
    r"|gade|vej|gatan|vägen)\s+(?!(?:19|20)\d\d\b)\d{1,5}[a-zA-Z]?"
    # (a year before words is no house number: "Spring 2026 Referral Drive")
    rf"|(?!(?:19|20)\d\d\b)\d{{1,5}}[A-Z]?\s+(?:[A-Z][\w'-]*\s+){{1,3}}(?:{_STREET_WORDS})(?![\w])"
    # The street word first, as in Malay, French, Italian, Spanish, Portuguese: "28 Jalan
    # Kemuning", "12 Rue Cler".
    r"|\d{1,5}[A-Z]?\s+(?:Jalan|Lorong|Rue|Via|Calle|Avenida|Rua|Avenue)(?:\s+[A-Z][\w'-]*){1,3}"
    # A unit in a block ("#05-11"), then the postcode when given before the city.
    r")(?:\s*#\d{1,3}-\d{1,4})?(?:,\s*\d{4,6}(?=\s+[A-Z]))?"
)
# The postcode after the city that follows an address ("…, Singapore 769842"): the city is a
# place of its own, the postcode part of the address.
_POSTCODE_AFTER_RE = re.compile(r",\s*[A-Z][a-z]+(?:\s+[A-Z][a-z]+)?\s+(\d{4,6})\b")


def find_addresses(analysis: Analysis) -> Iterator[ThingFact]:
    for m in _ADDRESS_RE.finditer(analysis.text):
        if not analysis.is_free(m.start(), m.end()):
            continue
        analysis.claim(m.start(), m.end())
        value = m.group()
        after = _POSTCODE_AFTER_RE.match(analysis.text, m.end())
        if after and analysis.is_free(*after.span(1)):
            analysis.claim(*after.span(1))
            value = f"{value}, {after.group(1)}"
        yield ThingFact("address", value, m.group(), m.span())


# --- codes ------------------------------------------------------------------------------------

# A prefix of capitals and a number: an id of a system the account does not model ("CC-4410",
# "PO-88213", "PAY-2291", an asset tag "SG-LT-20417"); record ids of the account were claimed
# before.
# "TP-INV-7731", and references of several numbered parts: "INV-2026-1184", "MSA-CF-2023-07".
# One letter will do with three digits or more: "req R-2291".
_PREFIXED_CODE_RE = re.compile(
    r"(?<![\w-])(?:[A-Z]{2,6}|[A-Z](?=-\d{3}))(?:-[A-Z]{1,6})*(?:-\d{2,10})+(?:-[A-Z0-9]{1,6})?(?![\w-])"
)
# The codes of the airlines people fly for work, which make a flight number of a number after
# them ("Is SQ 322 still on time?"): world knowledge, like the software brands below.
AIRLINES = (
    "SQ|BA|LH|AF|KL|EK|QF|CX|DL|UA|AA|NH|JL|TK|QR|EY|AC|IB|LX|OS|SK|AY|TG|MH|GA|VN|PR|CI|BR|OZ|"
    "KE|AI|NZ|VS|EI|TP|AZ|SN|LO|WN|B6|AS|FR|U2|W6|VY|3K|TR|AK|5J|QZ|MU|CA|CZ|HU|ET|KQ|SA|MS|SV|"
    "WY|GF|UL|PG|JQ|VA|LA|AV|CM|AM|WS|FI|DY|A3|OU|RO|LY|FJ|HX|UO|KA|MF|ZH|3U|SU|S7"
)
# A part of a whole said bare ("only 34 of the 40"); with its noun ("60 of the 100 boxes") it
# is left to the quantities.
_PORTION_RE = re.compile(
    r"(?<![\w.,])(\d[\d,]*)\s+(?:of|out\s+of)\s+(?:the\s+|a\s+)?(\d[\d,]*)\b(?!\s+[A-Za-z])"
)
# How many of someone's things: "14 of their sites" ("60 of the 100 boxes" counts boxes).
_PORTION_OF_RE = re.compile(
    r"(?<![\w.,])\d[\d,]*\s+of\s+(?:(?:their|our|your|its|his|her|the)\s+[a-z]{3,}s|them|those|these)\b"
)
_AIRLINE_FLIGHT_RE = re.compile(rf"(?<![\w-])({AIRLINES})\s?(\d{{1,4}})(?![\w-])")
# An airline's two-character code and a flight number, after "flight" ("flight SQ 322").
_FLIGHT_RE = re.compile(
    r"\bflights?\s+(?:number\s+|no\.?\s+)?([A-Z][A-Z0-9]|[A-Z0-9][A-Z])\s?(\d{1,4})\b"
)
# A company registration number after its name ("UEN 201934567K", "VAT number GB123456789").
_REGISTRATION_RE = re.compile(
    r"\b(UEN|VAT|EIN|ABN|ACN|CRN|GST|TIN|registration|company number)"
    r"(?:\s+(?:no\.?|number|id))?\s*:?\s*([A-Z]{0,3}\d[\dA-Z-]{5,18})\b",
    re.IGNORECASE,
)
# Names written as code: snake_case always; kebab-case when its last part is a word of software
# ("billing-service", "search-indexer"), since "read-only" and "one-way" are English.
# A file by its name and extension ("receipt_burntends.jpg", "Q4 deck v2.pptx" is not one: no
# spaces), a card statement's merchant descriptor ("NXT*CLOUDHOST", "SQ *KOPI"), and a name
# joined by dashes with an acronym or an inner capital in it ("FinOps-APAC", "Sales-EMEA"):
# typed as the user's systems show them, so said back exactly.
_FILE_RE = re.compile(
    r"(?<![\w.-])[\w][\w.-]*\.(?i:jpe?g|png|gif|heic|pdf|docx?|xlsx?|csv|pptx?|txt|zip|eml|msg)"
    r"(?![\w-])"
)
_DESCRIPTOR_RE = re.compile(r"(?<![\w*])[A-Z0-9]{2,}\s?\*\s?[A-Z0-9][A-Z0-9.-]*(?![\w*])")
_DASHED_NAME_RE = re.compile(r"(?<![\w-])[A-Z][A-Za-z0-9]*(?:-[A-Z0-9][A-Za-z0-9]*)+(?![\w-])")
_ACRONYM_OR_INNER_CAPITAL_RE = re.compile(r"[A-Z]{2}|[a-z][A-Z]")
_SNAKE_RE = re.compile(r"(?<![\w-])[a-z][a-z0-9]*(?:_[a-z0-9]+)+(?![\w-])")
_KEBAB_RE = re.compile(r"(?<![\w-])[a-z][a-z0-9]*(?:-[a-z0-9]+)+(?![\w-])")
_SOFTWARE_WORDS = frozenset(
    """
    service services svc api apis app apps indexer index worker workers gateway db database
    server proxy queue job jobs pipeline frontend backend web sync bot engine cache store ui
    portal cluster consumer producer scheduler cron lambda function handler router auth
    service-api repo module lib sdk cli agent daemon exporter collector
    """.split()
)


# Nouns after a name written as code that make it one ("the new-onboarding-flow flag").
_CODE_CUES = frozenset(
    """
    flag flags service job repo repository branch pipeline bucket table queue topic cluster
    namespace endpoint dashboard alert workflow script module package library container
    """.split()
)
_WORD_AFTER_RE = re.compile(r"\s+([A-Za-z]+)")
# First parts of English compounds ("self-service", "one-way", "follow-up").
_ENGLISH_PREFIXES = frozenset(
    """
    self non co re pre multi cross well high low long short full part all semi anti post sub
    over under out in on off one two three four five year month week day end state hands front
    back follow check log sign set top first last e x
    """.split()
)
# Words that join an English compound of three parts ("end-to-end", "state-of-the-art").
_JOINING_WORDS = frozenset({"to", "of", "the", "on", "in", "a", "and", "by", "for"})
# A number with its sign ("run #8841", "PR #412").
_NUMBERED_RE = re.compile(r"(?<![\w#])#\d{2,9}\b")
# A fault code after what it is ("error E-17", "fault code F3", "alarm A-204") and a size in
# pixels or units ("728x90", "300 x 250").
_FAULT_CODE_RE = re.compile(
    r"\b(?:error|fault|alarm|code)\s+([A-Z]{1,3}-?\d{1,4}|\d{3,4})\b", re.IGNORECASE
)
_DIMENSIONS_RE = re.compile(r"(?<![\w.,])\d{2,4}\s?[x×]\s?\d{2,4}(?!\w|[.,]\d)")
# A record's number in the user's own system, after the record's noun: "Order 88-31207",
# "booking 4410-22", "PO 4500018842" (the account's own ids were claimed before).
_RECORD_NUMBER_RE = re.compile(
    r"\b(?:order|invoice|PO|purchase\s+order|ticket|case|contract|booking|reservation|shipment"
    r"|claim|quote|policy|account|member|reference|ref)(?:\s*#\s?(\d{3,})|\s+(?:no\.?\s+|number\s+)?(\d{2,}(?:-\d{2,})+|\d{5,}(?!\s+[a-z]+s\b)))\b",
    re.IGNORECASE,
)
# A reference in parts between slashes, letters and digits both: "contract 2025/LGL/019".
_SLASHED_CODE_RE = re.compile(
    r"(?<![\w/])(?=[\w/]*[A-Z])(?=[\w/]*\d)[A-Z0-9]{2,}(?:/[A-Z0-9]{2,}){2,}(?![\w/])"
)
# The last digits of an account or a card, as people give them: "account ending 7781".
_ENDING_RE = re.compile(r"\b(?:ending(?:\s+in|\s+with)?|ends\s+(?:in|with))\s+(\d{3,6})\b", re.I)
# A sign-in name after the word that introduces it: "reset it for j.tay", "user s_lim".
_USERNAME_RE = re.compile(
    r"\b(?:for|user(?:name)?|login|handle)\s+([a-z][a-z0-9]*[._][a-z][a-z0-9]*)\b(?![.@-]\w)"
)
# A web address or a domain ("dhl-parcels-track.co", "https://status.example.com/x").
_DOMAIN_RE = re.compile(
    r"(?<![\w@.-])(?:https?://)?(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+"
    r"(?:com|net|org|io|co|ai|app|dev|info|biz|me|sg|uk|de|fr|nl|au|us|ca|jp|in|cn|eu|ch|se)"
    r"(?:\.[a-z]{2})?(?:/[^\s,;)]*)?(?![\w-])",
    re.IGNORECASE,
)


def find_codes(analysis: Analysis) -> Iterator[ThingFact]:
    text = analysis.text
    found: list[tuple[int, int, str]] = []
    for m in _PREFIXED_CODE_RE.finditer(text):
        found.append((m.start(), m.end(), m.group()))
    for m in _FLIGHT_RE.finditer(text):
        found.append((m.start(1), m.end(2), f"{m.group(1)} {m.group(2)}"))
    for m in _AIRLINE_FLIGHT_RE.finditer(text):
        # As typed: "SQ322" is not re-spaced to "SQ 322".
        found.append((m.start(1), m.end(2), text[m.start(1) : m.end(2)]))
    for m in _PORTION_RE.finditer(text):
        # "only 34 of the 40": how much of a whole, said as typed.
        found.append((m.start(), m.end(), f"{m.group(1)} of {m.group(2)}"))
    for m in _PORTION_OF_RE.finditer(text):
        found.append((m.start(), m.end(), m.group()))
    for m in _REGISTRATION_RE.finditer(text):
        found.append((m.start(), m.end(), f"{m.group(1).upper()} {m.group(2).upper()}"))
    for m in _FILE_RE.finditer(text):
        found.append((m.start(), m.end(), m.group()))
    for m in _DESCRIPTOR_RE.finditer(text):
        found.append((m.start(), m.end(), m.group()))
    for m in _DASHED_NAME_RE.finditer(text):
        lower = any(c.islower() for c in m.group())
        if lower and _ACRONYM_OR_INNER_CAPITAL_RE.search(m.group()):
            found.append((m.start(), m.end(), m.group()))
    for m in _SNAKE_RE.finditer(text):
        found.append((m.start(), m.end(), m.group()))
    for m in _KEBAB_RE.finditer(text):
        parts = m.group().split("-")
        after = _WORD_AFTER_RE.match(text, m.end())
        cued = after is not None and after.group(1).lower() in _CODE_CUES
        many = len(parts) >= 3 and not set(parts) & _JOINING_WORDS
        if parts[0] in _ENGLISH_PREFIXES and not cued:
            continue  # "self-service", "follow-up", "end-to-end": English, not code
        if parts[-1] in _SOFTWARE_WORDS or cued or many:
            found.append((m.start(), m.end(), m.group()))
    for m in _NUMBERED_RE.finditer(text):
        found.append((m.start(), m.end(), m.group()))
    for m in _RECORD_NUMBER_RE.finditer(text):
        number = 1 if m.group(1) else 2
        found.append((m.start(number), m.end(number), m.group(number)))
    for pattern in (_SLASHED_CODE_RE, _USERNAME_RE, _ENDING_RE):
        for m in pattern.finditer(text):
            group = 1 if pattern.groups else 0
            found.append((m.start(group), m.end(group), m.group(group)))
    for m in _FAULT_CODE_RE.finditer(text):
        if any(c.isupper() for c in m.group(1)) or m.group(1).isdigit():
            found.append((m.start(1), m.end(1), m.group(1)))
    for m in _DIMENSIONS_RE.finditer(text):
        found.append((m.start(), m.end(), m.group()))
    for m in _DOMAIN_RE.finditer(text):
        found.append((m.start(), m.end(), m.group()))
    # The longest reading of a place wins ("dhl-parcels-track.co" is a domain, not a name).
    for start, end, value in sorted(found, key=lambda f: (f[0], -f[1])):
        if not analysis.is_free(start, end):
            continue
        analysis.claim(start, end)
        # A part of a whole is no code: it sits beside the order's or the PO's number.
        portion = _PORTION_RE.fullmatch(text[start:end]) or _PORTION_OF_RE.fullmatch(
            text[start:end]
        )
        kind = "portion" if portion else "code"
        yield ThingFact(kind, value, text[start:end], (start, end))


# --- products and models ----------------------------------------------------------------------

# A word with a model number ("U2724D", "X1", "TS4", "K9") or an inner capital ("ThinkPad",
# "iPhone", "NetSuite"); what a product name is made of, besides plain capitalised words.
_MODEL_WORD_RE = re.compile(r"^(?:[A-Za-z]*\d+[A-Za-z0-9]*|[A-Za-z]+\d*|\d+)$")
_INNER_CAPITAL_RE = re.compile(r"^[a-zA-Z]*[a-z][A-Z][A-Za-z]*\d*$")
_HAS_DIGIT_AND_LETTER_RE = re.compile(r"^(?=.*\d)(?=.*[A-Za-z])[A-Za-z0-9]+$")
# Capitalised words that are not part of a product's name at its edges.
_NOT_PRODUCT_WORDS = (
    FUNCTION_WORDS | REQUEST_WORDS | MONTH_WORDS | WEEKDAY_WORDS | {"q1", "q2", "q3", "q4"}
)
# Shapes that are something else: a quarter, a severity, a priority, a size or an ordinal.
_NOT_A_MODEL_RE = re.compile(
    r"^(?:q[1-4]|h[12]|fy\d{2,4}|sev\d|p[0-4]|\d+(?:st|nd|rd|th|s|am|pm|h|k|m|x|gb|tb|mb|kg|km|"
    r"cm|mm|in|ft|m2)|\d+x\d+|covid\d*|[a-z]\d)$",
    re.IGNORECASE,
)


def _model_word(word: str) -> bool:
    if word.casefold() in LEGAL_FORMS:  # "GmbH" ends a company's name
        return False
    if _NOT_A_MODEL_RE.match(word) and not _INNER_CAPITAL_RE.match(word):
        return False
    return bool(_HAS_DIGIT_AND_LETTER_RE.match(word) or _INNER_CAPITAL_RE.match(word))


# Business software people name by its brand alone ("access to Jira", "an Adobe Acrobat
# licence"): world knowledge, as a gazetteer is, matched as written (with its capital).
SOFTWARE = frozenset(
    """
    Salesforce Slack Zoom Jira Confluence Figma Notion Tableau Workday SAP Oracle Excel Outlook
    Teams SharePoint OneDrive Dropbox Asana Trello HubSpot Zendesk ServiceNow GitHub GitLab
    Bitbucket Jenkins Grafana Datadog PagerDuty Splunk AWS Azure Okta DocuSign Xero QuickBooks
    NetSuite Photoshop Illustrator InDesign Acrobat Canva Miro Loom Visio Snowflake Databricks
    Kubernetes Docker Terraform Postgres PostgreSQL MySQL Redis Kafka Webex Gmail Adobe
    Microsoft Google Atlassian Intercom Marketo Mailchimp Shopify Stripe Twilio Sentry Looker
    Airtable Smartsheet Coupa Concur Greenhouse Lever BambooHR Gusto Ariba Workato Zapier
    """.split()
)
# Words that end a product's name as its edition ("Adobe Acrobat Pro", "Office 365").
_EDITIONS = frozenset(
    "pro plus max premium enterprise standard ultra mini air lite business professional".split()
)


def _model_or_brand(word: str) -> bool:
    return _model_word(word) or word in SOFTWARE


_MODEL_NUMBER = re.compile(r"(?!19|20)\d{4}")
_SHORT_MODEL_RE = re.compile(r"^[A-GI-OR-Z]\d{1,2}$")


def find_products(analysis: Analysis) -> Iterator[ThingFact]:
    """Capitalised runs that hold a model word or a brand: "Dell U2724D", "MacBook Pro 14",
    "Adobe Acrobat Pro"."""
    words = analysis.words
    i = 0
    while i < len(words):
        word = words[i]
        # A letter and a digit after a capitalised name is its model ("Aurora X2"); alone, it
        # is a paper size or a grade ("A4", "P1").
        short_model = (
            _SHORT_MODEL_RE.match(word.text) is not None
            and i > 0
            and words[i - 1].capitalised
            and not words[i - 1].sentence_start
            and words[i - 1].folded not in _NOT_PRODUCT_WORDS
        )
        if not (_model_or_brand(word.text) or short_model) or not analysis.is_free(
            word.start, word.end
        ):
            i += 1
            continue
        first = i
        # Back over the brand ("Dell", "Herman Miller"): capitalised words right before it.
        while (
            first > 0
            and words[first - 1].capitalised
            and words[first - 1].folded not in _NOT_PRODUCT_WORDS
            and not words[first - 1].sentence_start
            and analysis.text[words[first - 1].end : words[first].start] in (" ", "-")
            and analysis.is_free(words[first - 1].start, words[first - 1].end)
            and i - first < 2
        ):
            first -= 1
        last = i
        # On over the rest of the name ("X1 Carbon", "Pro 14"): capitalised words or numbers.
        while (
            last + 1 < len(words)
            and analysis.text[words[last].end : words[last + 1].start] == " "
            and analysis.is_free(words[last + 1].start, words[last + 1].end)
            and last - i < 2
            and (
                (words[last + 1].capitalised and words[last + 1].folded not in _NOT_PRODUCT_WORDS)
                or (
                    words[last + 1].text.isdigit()
                    # "ProLink 9000" is a model's number; "Pro 2027", a year.
                    and (
                        len(words[last + 1].text) <= 3
                        or _MODEL_NUMBER.fullmatch(words[last + 1].text)
                    )
                    # "27-inch" is a size, not the model's number.
                    and not analysis.text[words[last + 1].end :].startswith("-")
                )
                or _model_or_brand(words[last + 1].text)
                or words[last + 1].folded in _EDITIONS
            )
        ):
            last += 1
        start, end = words[first].start, words[last].end
        # A lone lower-case start ("iPhone") is a product; a lone number with letters needs a
        # capital ("A4" paper, "K9"), so "4g" or "2fa" alone are left alone.
        value = analysis.text[start:end]
        if first == last and not (_INNER_CAPITAL_RE.match(value) or value[0].isupper()):
            i += 1
            continue
        analysis.claim(start, end)
        yield ThingFact("product", value, value, (start, end))
        i = last + 1


# --- regions and sites ------------------------------------------------------------------------

# Regions of several countries, as written.
_REGIONS: dict[str, str] = {
    "eu": "EU",
    "european union": "European Union",
    "apac": "APAC",
    "emea": "EMEA",
    "asean": "ASEAN",
    "latam": "LATAM",
    "dach": "DACH",
    "benelux": "Benelux",
    "nordics": "Nordics",
    "middle east": "Middle East",
    "southeast asia": "Southeast Asia",
    "south east asia": "Southeast Asia",
    "north america": "North America",
    "latin america": "Latin America",
    "asia pacific": "Asia Pacific",
    "gcc": "GCC",
    "anz": "ANZ",
    "amer": "AMER",
    "americas": "Americas",
    "europe": "Europe",
    "asia": "Asia",
    "africa": "Africa",
}
_REGION_RE = re.compile(
    r"(?<![\w-])(?:the\s+)?("
    + "|".join(sorted((re.escape(k) for k in _REGIONS), key=len, reverse=True))
    + r")(?![\w-])",
    re.IGNORECASE,
)
# Nouns of a facility: a capitalised word right before one is where it is ("the Tuas lab").
_FACILITIES = frozenset(
    """
    site sites office offices plant lab labs laboratory warehouse campus factory store branch
    depot hub headquarters hq facility data centre center mill yard clinic
    """.split()
)
_FLOOR_RE = re.compile(r"\b(?:level|floor)\s+\d{1,3}\b", re.IGNORECASE)


@lru_cache(maxsize=1)
def _subdivisions() -> dict[str, str]:
    """States, provinces and the like of ISO 3166-2, by folded name (one word or more), for the
    names that are not also ordinary words or cities' own names."""
    import pycountry

    kinds = {"state", "province", "territory", "canton", "emirate", "region", "land"}
    out: dict[str, str] = {}
    for sub in pycountry.subdivisions:
        kind = str(getattr(sub, "type", "")).casefold()
        if not any(k in kind for k in kinds):
            continue
        name = str(sub.name)
        key = fold(name)
        if key in FUNCTION_WORDS or len(key) < 4:
            continue
        out.setdefault(key, name)
    return out


def find_regions(analysis: Analysis) -> Iterator[ThingFact]:
    text = analysis.text
    for m in _REGION_RE.finditer(text):
        said = m.group(1)
        # "EU" and "APAC" in capitals; written words ("Europe") capitalised.
        if not said[0].isupper() or not analysis.is_free(m.start(1), m.end(1)):
            continue
        analysis.claim(m.start(1), m.end(1))
        yield ThingFact("region", _REGIONS[said.lower()], said, m.span(1))
    for m in _FLOOR_RE.finditer(text):
        if analysis.is_free(m.start(), m.end()):
            analysis.claim(m.start(), m.end())
            yield ThingFact("site", m.group(), m.group(), m.span())
    subdivisions = _subdivisions()
    words = analysis.words
    for i, word in enumerate(words):
        if (
            not word.capitalised
            or word.sentence_start
            or not analysis.is_free(word.start, word.end)
        ):
            continue
        if word.folded in FUNCTION_WORDS or word.folded in REQUEST_WORDS:
            continue
        # Two words first ("New South Wales" needs three; two covers most).
        for size in (3, 2, 1):
            run = words[i : i + size]
            if len(run) < size or not all(w.capitalised for w in run):
                continue
            if any(not analysis.is_free(w.start, w.end) for w in run):
                continue
            key = " ".join(w.folded for w in run)
            start, end = run[0].start, run[-1].end
            nxt = words[i + size] if i + size < len(words) else None
            prev = words[i - 1] if i else None
            # A word of a longer name is no region ("Ines Barahona" is a person).
            inside = (prev is not None and prev.capitalised and text[prev.end : start] == " ") or (
                nxt is not None and nxt.capitalised and text[end : nxt.start] == " "
            )
            if key in subdivisions and not inside:
                analysis.claim(start, end)
                yield ThingFact("region", text[start:end], text[start:end], (start, end))
                break
            if size == 1 and nxt is not None and nxt.folded in _FACILITIES and not nxt.capitalised:
                # "their Penang site", "the Tuas lab": where the facility is.
                analysis.claim(start, end)
                yield ThingFact("site", text[start:end], text[start:end], (start, end))
                break


# --- words of a closed vocabulary -------------------------------------------------------------

# category -> the words or phrases (lower case) as they are said back; a phrase wins over its
# words ("premium economy" over "economy").
VOCABULARY: dict[str, tuple[str, ...]] = {
    "environment": (
        "production",
        "staging",
        "development",
        "sandbox",
        "test environment",
        "qa",
        "uat",
        "pre-production",
        "preprod",
    ),
    "channel": (
        "linkedin",
        "facebook",
        "instagram",
        "twitter",
        "tiktok",
        "youtube",
        "search ads",
        "display ads",
        "google ads",
        "whatsapp",
        "sms",
        "newsletter",
        "podcast",
        "webinar",
        "radio",
        "billboard",
    ),
    "seat": ("aisle seat", "window seat", "exit row", "aisle", "middle seat", "bulkhead"),
    "cabin": ("premium economy", "business class", "first class", "economy class"),
    "car class": (
        "compact",
        "economy car",
        "mid-size",
        "midsize",
        "full-size",
        "suv",
        "minivan",
        "people carrier",
        "convertible",
        "estate car",
        "station wagon",
        "luxury car",
        "electric car",
        "van",
        "pickup",
    ),
    "room": ("single room", "double room", "twin room", "suite", "king room", "queen room"),
    "access": (
        "read-only",
        "read only",
        "read-write",
        "read/write",
        "write access",
        "admin access",
        "administrator",
        "viewer",
        "editor",
        "full access",
    ),
    "agreement": ("mutual", "one-way", "one way", "unilateral", "bilateral", "two-way"),
    "outage": (
        "partial outage",
        "full outage",
        "major outage",
        "degraded performance",
        "scheduled maintenance",
    ),
    "status": ("degraded", "operational", "back online", "intermittent"),
    "insurance": ("full insurance", "basic insurance", "collision damage waiver", "cdw"),
    "request": ("erasure", "rectification", "data portability", "access request"),
}
_VOCABULARY_RE = re.compile(
    r"(?<![\w-])("
    + "|".join(
        sorted(
            (re.escape(w) for words in VOCABULARY.values() for w in words),
            key=len,
            reverse=True,
        )
    )
    + r")(?![\w-])",
    re.IGNORECASE,
)
_CATEGORY_OF = {w: category for category, words in VOCABULARY.items() for w in words}
# A split between two options ("50/50", "70/30"): the shares add up to 100.
_RATIO_RE = re.compile(r"(?<![\w/.])(\d{1,2})\s?/\s?(\d{1,2})(?![\w/.])")


_CAPITALISED_BEFORE = re.compile(r"[A-Z][\w&'-]*\s$")
_CAPITALISED_AFTER = re.compile(r"^\s[A-Z][\w&'-]*")


def _in_a_name(text: str, start: int, end: int) -> bool:
    """Whether a capitalised word stands inside a name of capitalised words ("Apex Print",
    "Radio Taxis Ltd"), where it is no word of the vocabulary."""
    if not text[start].isupper():
        return False
    return bool(
        _CAPITALISED_BEFORE.search(text[max(0, start - 30) : start])
        or _CAPITALISED_AFTER.match(text[end : end + 30])
    )


def find_vocabulary(analysis: Analysis) -> Iterator[ThingFact]:
    text = analysis.text
    for m in _VOCABULARY_RE.finditer(text):
        if not analysis.is_free(m.start(), m.end()) or _in_a_name(text, m.start(), m.end()):
            continue
        said = m.group(1)
        category = _CATEGORY_OF[said.lower()]
        analysis.claim(m.start(), m.end())
        yield ThingFact(category, said, said, m.span())
    for m in _RATIO_RE.finditer(text):
        if int(m.group(1)) + int(m.group(2)) != 100 or not analysis.is_free(m.start(), m.end()):
            continue
        analysis.claim(m.start(), m.end())
        yield ThingFact("split", f"{m.group(1)}/{m.group(2)}", m.group(), m.span())
