"""What a request asks for, as search reads it: not the reasons around it, and not the verb of an
edit that names no thing of its own.

A prospect explains as they ask: "Make it an SUV instead, we have a lot of demo equipment to
carry". The reason after the ask names other things (demo equipment) than the one asked about,
and a search over the whole text finds the agent that books product demos. Two rules, both
about the shape of the request, never its words:

- **Reasons are not the edit.** A request that opens its ask with an edit ("make it…", "raise
  it to…") is cut into clauses; a statement (a clause with a subject of its own: "we have…",
  "the Penang team is joining", "they have a competing offer") after the ask explains it and
  is left out of the search, and so is what the edit rejects ("instead of 10", "rather than
  the office"). A statement before the ask stays: it often names what the ask is about ("The
  workshop got extended by two days, move my return to the 19th"). Other requests are read
  whole: what follows a question often says what it is about.
- **What is rejected is not asked for**: "instead of repairing it", "rather than the office".
- **An edit is about what it edits.** "Move the demo to 11:30" moves the demo: an agent whose
  words never mention a demo is no match for it, however well "move" fits the trip agent. An
  edit of "it", "that" or "them" names nothing, and one of "her move" or "his start date" is
  about the person the conversation is about: no agent is named, so the follow-up goes back
  to the agent that answered last.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

# Words that open a clause without changing what it is ("please", "so", "and then").
_OPENERS = frozenset(
    """
    please kindly so and then also now fine ok okay actually sorry but just yes great thanks
    thank you well oh right alright only instead anyway
    """.split()
)
# Verbs that open an ask: an imperative ("book", "move"), not a statement.
_ASKING_VERBS = frozenset(
    """
    add adjust amend apply approve arrange ask assign attach block book bring buy calculate call
    cancel change chase check claim clear close confirm correct create deactivate declare delete
    deploy dispute draft email enable disable escalate expedite explain extend fetch file find
    fix flag fly forward get give grant help increase invite invoice issue launch list log look
    lower make mark move notify offer onboard open order organise organize page pause pay place
    plan post postpone prepare pull push put raise record reduce refund register reject remind
    renew reopen replace report request reschedule reserve reset resend restore retrieve roll
    run schedule screen search send set share ship shorten show sign silence start stop submit
    swap switch tell terminate toggle track transfer turn unblock unlock unsubscribe update
    upgrade upload void write quote kill revert rollback let inform alert warn ring
    ping scrap nudge hold freeze suspend return accept decline withdraw
    countersign lodge remove revoke hire publish promote boost deliver collect chase follow
    redo revise rework reissue resubmit
    """.split()
)
# How an ask opens when it is not an imperative ("can you…", "I need…", "she'll need…").
_ASK_OPENING = re.compile(
    r"^(?:(?:can|could|would|will)\s+(?:you|we|i)\b|i\s+(?:need|want|would\s+like|'d\s+like|’d\s+like)"
    r"|(?:i|we|she|he|they)(?:'ll|’ll|\s+will)\s+(?:also\s+)?need\b|let'?s\b|(?:we|i)\s+need\s+to\b)",
    re.IGNORECASE,
)
# A question opens with a question word, or with a verb before its subject ("is it fixed?",
# "should we…"); a verb with no subject after it opens a statement whose subject was left
# out ("should be back around 1pm", "was fine yesterday").
_QUESTION_OPENING = re.compile(
    r"^(?:what|which|when|where|who|why|how)\b(?!['’])"
    r"|^(?:is|are|was|were|do|does|did|has|have|can|could|will|would|should|may)\s+"
    r"(?:i|we|you|they|he|she|it|this|that|there|these|those|the|our|my|your|their|his|her|its"
    r"|a|an|any|anyone|anybody|someone|somebody|everyone|(?-i:[A-Z])\w*)\b",
    re.IGNORECASE,
)
# A clause with a subject of its own: a pronoun, or a determiner and a noun, then more.
_SUBJECT_OPENING = re.compile(
    r"^(?:i|we|they|he|she|it|it's|it’s|they're|they’re|we're|we’re|there|there's|that's|"
    r"(?:the|our|their|my|his|her|its|this|that|these|those)\s+\w+)\b",
    re.IGNORECASE,
)
_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*")
# Clause breaks: the end of a sentence, a semicolon or a dash, and a comma before a word (a
# comma inside a number, "12,500", is no break).
_BREAK = re.compile(r"(?<=[.!?;:])\s+|\s+[-–—]\s+|,\s+(?=[A-Za-z])")

# Verbs of an edit, and what they take as their object.
_EDIT_VERBS = frozenset(
    """
    move push shift postpone reschedule change make raise lower increase reduce extend shorten
    bring set switch update amend bump cut drop kill
    """.split()
)
_PRONOUNS = frozenset({"it", "that", "this", "them", "those", "these"})
# "Add three more", "add 2 extra": more of what was asked, naming nothing new.
_COUNT_MORE = re.compile(
    r"^\w+\s+(?:another\s+)?(?:\d+|a|one|two|three|four|five|six|seven|eight|nine|ten|a\s+few|"
    r"a\s+couple(?:\s+of)?)\s+(?:more|extra|additional)\b(?!\s+\w+\s+(?:for|to)\b)",
    re.IGNORECASE,
)
_PERSONS = frozenset({"her", "his"})
_DETERMINERS = frozenset({"the", "that", "this", "its", "their", "our", "my", "your"})
# Words that end an edit's object: what comes next is its new value or its manner.
_OBJECT_ENDS = frozenset(
    """
    to by from until till back forward up down on at in for with instead into than of a an
    so and but the same earlier later
    """.split()
)


# "Give it a budget of …", "set them a deadline of …": a field of "it" and its value.
_GIVEN_IT = re.compile(
    r"^\w+\s+(?:it|them|that|this)\s+(?:a|an|the|its|their)\s+(?:new\s+)?([A-Za-z]+)\s+(?:of|to)\b",
    re.IGNORECASE,
)
_ADDED_TO = re.compile(r"\bto\s+(?:its|their|that|the)\s+([A-Za-z]+)\b", re.IGNORECASE)


@dataclass(frozen=True)
class Edit:
    """An edit's object: ``nouns`` of "the demo" (["demo"]); none for "it" or "her move"."""

    nouns: tuple[str, ...]
    # The edit sets or adds a number ("add USD 8,000 to its budget", "raise the cap to 50").
    valued: bool = field(default=False, compare=False)


def _words(clause: str) -> list[str]:
    return [w.casefold() for w in _WORD.findall(clause)]


def _opened(clause: str) -> tuple[str, list[str]]:
    """The clause without its openers ("please", "so"), and its words."""
    words = _words(clause)
    start = 0
    while start < len(words) and words[start] in _OPENERS:
        start += 1
    if start == 0:
        return clause.strip(), words
    # Cut the text after the openers, keeping its case.
    found = list(_WORD.finditer(clause))
    rest = clause[found[start].start() :] if start < len(found) else ""
    return rest.strip(), words[start:]


# Words right after a first word that make it the subject of a statement, not an imperative
# ("refund goes out this week", "order is late").
_FINITE = frozenset(
    """
    is are was were will would has have had goes went comes came gets got looks seems needs
    keeps can could should must may might does did isn't aren't wasn't won't hasn't
    """.split()
)


# A record's noun before its reference ("order SO-80455", "invoice #5512") names the record:
# it is no imperative ("order 20 chairs" is).
_NOUN_OF_A_REFERENCE = re.compile(
    r"^(?:order|ticket|case|booking|shipment|contract|incident|po|ref|reference|receipt)"
    r"\s*(?:#\s*\d|no\.?\s+\d|number\s+\d|[A-Z]{1,6}[-/#]?\d|\d{5,})",
    re.IGNORECASE,
)


def _asks(clause: str) -> bool:
    text, words = _opened(clause)
    if not words or _NOUN_OF_A_REFERENCE.match(text):
        return False
    if len(words) > 1 and words[1] in _FINITE and not _QUESTION_OPENING.match(text):
        return False
    if len(words) > 1 and words[1] == "of" and words[0] in _ASKING_VERBS | _EDIT_VERBS:
        return False  # a noun, not an imperative: "change of plan", "list of suppliers"
    return (
        words[0] in _ASKING_VERBS
        or words[0] in _EDIT_VERBS
        or bool(_ASK_OPENING.match(text))
        or clause.rstrip().endswith("?")
        or bool(_QUESTION_OPENING.match(text))
        or bool(_PARTICLE_EDIT.match(text))
    )


def _states(clause: str) -> bool:
    text, words = _opened(clause)
    if not words or _asks(clause):
        return False
    # A subject of its own: a pronoun or a noun with its determiner, or a name and a verb
    # ("Legal flagged one of the claims").
    said = len(words) > 1 and (words[1] in _FINITE or words[1].endswith("ed"))
    return bool(_SUBJECT_OPENING.match(text)) or said


# What an edit does not want: "rather than the office", "instead of repairing it".
_REJECTED = re.compile(
    r"\s*\b(?:instead\s+of|rather\s+than"
    # "They don't want a replacement, they'd rather return it": what is not wanted.
    # Only with what is wanted in its place: "doesn't want any more newsletters" is the ask.
    r"|(?:do|does|did)(?:n[o']t|\s+not)\s+(?:want|need)\s+(?=an?\b|the\b)"
    r"(?=[^.!?]*\b(?:rather|instead|prefer|prefers)\b))\b[^,.;!?]*",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Focus:
    """What search reads of a request: its text (without the reasons given after an ask about
    "it" and the alternatives it rejects), the clauses that ask when there is context around
    them (``ask``: weighed as much as the rest), and the edit it asks for, if any."""

    text: str
    ask: str | None = None
    edit: Edit | None = None
    # The request asks a question ("is it fixed yet?", "which release has the fix?"), not for
    # something to be done ("can you book…?"): an agent that answers it, not one that acts.
    question: bool = False
    # The verb of an imperative that asks for something to be done ("open a case for them",
    # "register them as a supplier"): an agent that acts on it, or one named for that verb,
    # before one that reports on such things.
    doing: str | None = None
    # The question asks where a thing stands ("where's it at?", "did it go through?", "any
    # news on the refund?"): the agent that checks a status, whatever words name the thing.
    status: bool = False
    # Which side of a trade the request is on: "buy" (several quotes for one thing, offers
    # from suppliers) or "sell" (a customer wants a quote or more units), else None.
    side: str | None = None
    # The verb of doing was said as what the user wants done ("I need to claim the dinner"):
    # the few agents named for it are the ones meant.
    wanted: bool = False
    # A thing done already, said as news ("my flight just got cancelled"): the participle. An
    # agent that does that very thing is not what is asked; one that deals with it after is.
    done: str | None = None
    # An edit said of a record the request names by its reference ("On order SO-77120, drop
    # the scanners to 24"): a change of that record, not a new one.
    on_record: bool = False


# Said of a thing done to it: "got cancelled", "was approved", "has been delivered".
_DONE = re.compile(
    r"\b(?:got|gets|was|were|has\s+been|have\s+been|had\s+been|been)\s+(?:just\s+)?([a-z]+ed)\b",
    re.IGNORECASE,
)


# A label before the news it introduces ("update: they turned up this morning"): no ask.
_LABEL = re.compile(r"^\s*(?:update|fyi|heads[\s-]up|news|quick\s+one|ps|re)\s*[:—–-]\s*", re.I)


def focus(text: str) -> Focus:
    """What search reads of a request (see the module's rules)."""
    text = _LABEL.sub("", text) or text
    read = _focus(text)
    question = _asks_a_question(text)
    # A question of not renewing ("what's the last day to tell them we won't renew?") is
    # about the term; an ask of it, about ending the contract.
    said = read.text if question else _DISCONTINUED.sub(r"\1terminating", read.text)
    # Back to an earlier version is a rollback, however it is said ("go back to 3.14.1").
    said = _BACK_TO_VERSION.sub(r"roll back to \1", said)
    doing = None if question else _doing(text)
    if not question and doing is None and _COUNTED_GOODS.match(text):
        # A list of goods and nothing asked of them is an order for them.
        said = f"{said} order"
    return Focus(
        _NON_RENEWAL.sub("termination", said),
        read.ask,
        read.edit,
        question,
        doing,
        question and bool(_STATUS_QUESTION.search(text)),
        _side(text),
        not question and _wants_a_verb(text),
        done.group(1).casefold() if (done := _DONE.search(text)) else None,
        read.edit is not None and bool(_RECORD_ID.search(text)),
    )


# A request that opens with a count of things ("40 boxes of A4 and 10 packs of markers by
# Thursday"), not of time, money or a share.
_COUNTED_GOODS = re.compile(
    r"^\s*\d+\s*(?:x\s+)?(?!(?:am|pm|days?|weeks?|months?|years?|hours?|hrs?|nights?|minutes?"
    r"|mins?|percent|pct|k|grand)\b)[A-Za-z]",
    re.IGNORECASE,
)


# Not going on with a thing is ending it: "we're not renewing", "won't extend the lease", "no
# longer continue with them" ask for its termination, not its renewal.
_DISCONTINUED = re.compile(
    r"((?:\bnot|n't|n’t|\bnever|\bno\s+longer)\s+(?:be\s+|going\s+to\s+)?)"
    r"(?:renew|extend|continu|keep)\w*",
    re.IGNORECASE,
)
_BACK_TO_VERSION = re.compile(
    r"\b(?:go|going|get|move|switch|put\s+(?:it|us|them)|take\s+(?:it|us)|revert|return)\s+"
    r"back\s+to\s+(v?\d+(?:\.\d+){1,3}\b)",
    re.IGNORECASE,
)
_NON_RENEWAL = re.compile(r"\bnon-?\s?renewal\b", re.IGNORECASE)


# Buying: several quotes or bids for one thing (one comes from each supplier asked), offers
# from suppliers, a request for quotation.
_BUYING = re.compile(
    r"\b(?:\d+|two|three|four|five|several|a\s+few|multiple|competing|comparable)\s+"
    r"(?:quotes|quotations|bids|offers|proposals)\b"
    r"|\b(?:quotes?|bids?|offers?|prices?)\s+from\s+(?:\w+\s+){0,3}(?:suppliers?|vendors?|dealers?)\b"
    # Going out to several suppliers is buying from one of them.
    r"|\b(?:\d+|two|three|four|five|several|multiple|a\s+few)\s+(?:other\s+)?(?:suppliers|vendors|dealers)\b"
    r"|\bRFQs?\b|\brequest\s+for\s+(?:quotation|proposal)",
    re.IGNORECASE,
)
# Selling: a named party (not we, not I) wants or asked for something from us.
_SELLING = re.compile(
    r"(?:^|[.!?]\s+)(?:[^.?!]*?[,;:]\s+)?(?!(?:I|We|They|You|He|She)\s)(?:(?-i:[A-Z])[\w&'’-]*\s+){1,3}(?:wants?|asked\s+for|asks\s+for|needs?|"
    r"requested|would\s+like)\s+(?:a|an|another|more|\d+)\b"
    # Whoever wants a quote from us buys from us: "they want a quote for 150 seats".
    r"|\b(?:they|he|she)\s+(?:want|wants|need|needs|asked\s+for|would\s+like)\s+(?:a|an)\s+"
    r"(?:quote|quotation|proposal)\b"
    r"|\b(?:for|to)\s+(?:our|the|a|this)\s+(?:customer|client|prospect)s?\b",
    re.IGNORECASE,
)


def _side(text: str) -> str | None:
    if _BUYING.search(text):
        return "buy"
    if _SELLING.search(text):
        return "sell"
    return None


# How people ask where a thing stands, whatever the thing.
_STATUS_QUESTION = re.compile(
    r"\bwhere(?:'s|’s|\s+is|\s+are)\s+(?:it|that|this|they|we)\s+(?:at|now)\b"
    r"|\bwhere\s+(?:are\s+we|do\s+we\s+stand)\s+(?:with|on)\b"
    r"|\bany\s+(?:news|update|updates|progress|word)\b"
    r"|\bwhat(?:'s|’s|\s+is)\s+(?:happening|going\s+on)\s+with\b"
    r"|\bhow\s+(?:is|are)\s+[\w\s'’-]{1,40}?\s+(?:going|coming\s+along|progressing)\b"
    r"|\b(?:did|has|have)\s+(?:it|that|this|they|the\s+\w+)\s+(?:go|gone)\s+through\b"
    r"|\bwhat(?:'s|’s|\s+is)\s+the\s+latest\b",
    re.IGNORECASE,
)


# Imperatives that ask to be told or shown something, which an agent that answers does.
_READING_VERBS = frozenset(
    """
    show list find look search check tell give get fetch retrieve pull report track see review
    explain calculate compare summarise summarize estimate forecast help read work figure
    """.split()
)


# What opens an ask that wants a verb done: "i need to", "we want to", "i'd like to".
_WANTED_VERB = re.compile(r"^(?:i|we)\s+(?:want|need|would\s+like|d\s+like)\s+(?:you\s+)?to\s")


def _first_ask(text: str) -> tuple[str, list[str], bool] | None:
    """The first clause that asks, its words from its verb on, and whether that verb was said
    as what the user wants done ("I need to claim the dinner": claim; not "I want to
    change…", whose verb says how, not what); None when no clause asks."""
    for clause in _BREAK.split(text.strip()):
        if clause.strip() and _asks(clause):
            _, words = _opened(clause)
            wanted = _WANTED_VERB.match(" ".join(words))
            after = words[len(wanted.group().split()) :] if wanted else []
            if after and after[0] not in GENERIC_VERBS:
                return clause, after, True
            return clause, words, False
    return None


def _wants_a_verb(text: str) -> bool:
    first = _first_ask(text)
    return first is not None and first[2]


def _doing(text: str) -> str | None:
    """The verb of the first clause that asks, when it is an imperative of doing."""
    first = _first_ask(text)
    if first is None:
        return None
    clause, words, _ = first
    verb = words[0] if words else ""
    doing = verb in _ASKING_VERBS | _EDIT_VERBS and verb not in _READING_VERBS
    return verb if doing and not _is_question(clause) else None


# A question that asks for something to be done: "can you book…?", "could I get…?".
_REQUEST_QUESTION = re.compile(
    r"^(?:(?:please|so|and|ok|okay|hi|hello)[,\s]+)*(?:can|could|would|will)\s+(?:you|we|i|u)\b"
    r"|^(?:may|might)\s+i\b|^(?:is|would)\s+it\s+possible\b|^do\s+you\s+mind\b",
    re.IGNORECASE,
)


def _asks_a_question(text: str) -> bool:
    """Whether a request asks a question rather than for something to be done."""
    clauses = [c for c in _BREAK.split(text.strip()) if c.strip()]
    asking = [c for c in clauses if _asks(c)]
    if not asking or not all(_is_question(c) for c in asking):
        return False
    return True


# A question of how a thing is done, which the agent that does it answers ("what do they need
# to fill in so we can raise orders with them?").
_HOW_TO = re.compile(
    r"^(?:how\s+(?:do|can|should|would)|what\s+(?:do|does|would)\s+\w+\s+(?:need|have)\s+to)\b",
    re.IGNORECASE,
)


def _is_question(clause: str) -> bool:
    text, _ = _opened(clause)
    if _REQUEST_QUESTION.match(text) or _HOW_TO.match(text):
        return False
    return clause.rstrip().endswith("?") or bool(_QUESTION_OPENING.match(text))


def _focus(text: str) -> Focus:
    # What a request rejects is never what it asks for ("instead of repairing it").
    whole = _without_rejected(text) or text
    clauses = [c for c in _BREAK.split(text.strip()) if c.strip()]
    asking = [i for i, c in enumerate(clauses) if _asks(c)]
    if not asking:
        # "They want 300 instead": a change of what was asked before, naming nothing new.
        changes = any(_instead_of_it(c) for c in clauses) or _CORRECTS.search(text)
        return Focus(whole, edit=Edit(()) if changes else None)
    first = asking[0]
    ask = _without_rejected(clauses[first])
    edit = edited(ask) if ask else None
    if edit is None and (_instead_of_it(clauses[first]) or _elsewhere_not_it(clauses[first])):
        edit = Edit(())
    about_it = edit is not None or _of_it(ask)
    # News before an edit that sets a value ("They just called back - make that 55 instead")
    # does not say what "that" is: the request before does.
    # Nor does a new value said before it ("They asked for 5 years instead, change it"), nor
    # news after taking back what was asked ("Scratch that, support is flooded. Kill it").
    before = any(_states(c) or _names_a_thing(c) for c in clauses[:first]) and not (
        (edit is not None and not edit.nouns or _of_it(ask))
        and (
            edit is not None
            and (_VALUE.search(ask) or any(_instead_of_it(c) for c in clauses[:first]))
            or _TAKEN_BACK.match(text)
        )
    )
    if about_it and not before:
        # "Pause it. Legal flagged one of the claims": what follows explains the ask.
        last = asking[-1]
        kept = [c.strip() for i, c in enumerate(clauses) if not (i > last and _states(c))]
        return Focus(_without_rejected(", ".join(kept)) or text, edit=edit)
    if edit is not None and not edit.nouns:
        # What "it" is was said before the ask ("the developers should look at this, please
        # raise it as a defect"): the whole request is read.
        edit = None
    # An ask that names its object ("open a high-priority case for them", "prepare her
    # offer") weighs as much as the context around it; one about "it" leans on the context.
    named = [i for i in asking if _names_its_object(clauses[i])]
    asked = ", ".join(_without_rejected(clauses[i]) for i in named)
    context = bool(named) and len(clauses) > len(named) and asked != whole
    return Focus(whole, ask=asked if context else None, edit=edit)


def _names_its_object(clause: str) -> bool:
    """An imperative whose object is a thing named ("open a case", "prepare her offer")."""
    _, words = _opened(clause)
    if len(words) < 2 or words[0] not in _ASKING_VERBS:
        return False
    # "Get quotes from three vendors" names what to get; "get rid of it", "get me …" do not.
    if words[0] in _VAGUE_VERBS and not (words[0] == "get" and words[1] not in _GET_FILLER):
        return False
    rest = [w for w in words[1:] if w not in _DETERMINERS and w not in _OBJECT_FILLER]
    return bool(rest) and rest[0] not in _PRONOUNS | _NOT_A_THING | _PARTICLES


# What "get" takes when it names no thing to get ("get me a…", "get rid of", "get it back").
_GET_FILLER = frozenset(
    "me us him her them it this that rid back on in out going started a an the".split()
)
# Verbs that say little of what is wanted ("get rid of", "put 4.7 back", "help me …").
_VAGUE_VERBS = frozenset("get put make do have take help let go keep see look give".split())
# Verbs that say how, not what ("change", "make", "draft", "get"): many a task is done by one,
# so no agent is the one for such a verb alone.
GENERIC_VERBS = (
    _EDIT_VERBS
    | _VAGUE_VERBS
    | _READING_VERBS
    | frozenset(
        "add give send set draft write prepare create file submit raise request open start"
        " plan".split()
    )
)
_OBJECT_FILLER = frozenset("a an her his me us him them each every all both some any".split())
_PARTICLES = frozenset(
    """
    back up down off on out away over what which who whatever everything one ones january
    february march april may june july august september october november december monday
    tuesday wednesday thursday friday saturday sunday today tomorrow
    """.split()
)


# A value an edit sets or adds ("make that 55 instead", "to 4 January"): then "that" is what
# was asked before, whatever news came before the ask ("They just called back - make that 55").
_VALUE = re.compile(r"\d|\binstead\b|\bto\s+\w", re.IGNORECASE)


def _without_rejected(text: str) -> str:
    return _REJECTED.sub("", text).strip()


def _of_it(clause: str) -> bool:
    """Whether an ask's object is "it", "that" or "them" ("Pause it", "Cancel that")."""
    _, words = _opened(clause)
    return len(words) > 1 and words[0] in _ASKING_VERBS | _EDIT_VERBS and words[1] in _PRONOUNS


# What takes back the request before ("Scratch that, ...", "Forget that, ...").
_TAKEN_BACK = re.compile(
    r"\s*(?:scratch|forget|ignore|cancel)\s+(?:that|this|it)\b|\s*never\s*mind\b"
    r"|\s*on\s+second\s+thoughts?\b",
    re.IGNORECASE,
)
# A correction of a value said before: "the total was actually 196.40", "it should be 12";
# or news that one of theirs moved ("her start date just moved to the 11th").
_CORRECTS = re.compile(
    r"\bit(?:'s|’s|\s+is|\s+was)\s+[^,.!?]+,\s*not\s|\bI\s+meant\b"
    r"|\b(?:was|is|were|are)\s+actually\b[^.?!]*\d"
    # With its subject: "it should be 12"; "should be back around 1pm" is news, no correction.
    r"|\b[A-Za-z]+\s+should\s+(?:have\s+been|be)\b[^.?!]*\d"
    r"|^(?:her|his|their|its|my|our)\s+(?:[a-z-]+\s+){1,3}(?:just\s+|has\s+|have\s+|got\s+|been\s+)*"
    r"(?:moved|changed|shifted|slipped|pushed|brought)\b[^.?!]*\b(?:to|until|back|forward)\b",
    re.IGNORECASE,
)


def _instead_of_it(clause: str) -> bool:
    """A clause that changes what was asked before without naming a thing of its own: "let's
    have it end on the 28th instead", "they want 300 instead", "the total was actually
    196.40"."""
    if _CORRECTS.search(clause):
        return True
    words = _words(clause)
    if "instead" not in words:
        return _wants_a_number_alone(clause)
    if words[words.index("instead") + 1 : words.index("instead") + 2] == ["of"]:
        # "She now wants all of it deleted instead of a copy": a change of "it".
        kept = _words(_without_rejected(clause))
        return any(w in _PRONOUNS for w in kept) and any(w in _WANTING for w in kept)
    if any(w in _PRONOUNS for w in words):
        return True
    said = _WORD.findall(clause)
    # What is wanted comes after who wants it ("the client wants 40 instead").
    wanting = [i for i, w in enumerate(said) if w.casefold() in _WANTING]
    if wanting:
        said = said[wanting[0] + 1 :]
    return not [w for w in said if not w[0].isupper() and w.casefold() not in _NOT_A_THING]


def _wants_a_number_alone(clause: str) -> bool:
    """ "They've come back and want 300 now", "she needs 5": what someone wants is a number
    with no thing of its own, so more or fewer of what was asked before."""
    said = _WORD.findall(clause)
    wanting = [i for i, w in enumerate(said) if w.casefold() in _WANTING]
    if not wanting:
        return False
    after = clause[[m.start() for m in _WORD.finditer(clause)][wanting[0]] :]
    named = [w for w in _WORD.findall(after)[1:] if w.casefold() not in _NOT_A_THING]
    return bool(re.search(r"\d", after)) and not named


def _elsewhere_not_it(clause: str) -> bool:
    """ "Ship them to my home rather than the office": a change of where "them" goes, unless
    what it rejects is another action ("replace it … instead of repairing it")."""
    rejected = _REJECTED.search(clause)
    if rejected is None or re.search(r"ing\b", rejected.group()):
        return False
    _, words = _opened(clause)
    return len(words) > 1 and words[1] in _PRONOUNS


_WANTING = frozenset("want wants wanted asked asks prefer prefers needs need would".split())
# Words of a change that name no thing: who wants it, and filler.
_NOT_A_THING = frozenset(
    """
    they he she we i you it want wants wanted would like prefer prefers asked asks ask need
    needs have has had let let's lets make made instead same day time then now actually
    please ok okay a the for at on to and works work better just only
    days week weeks month months year years hour hours minutes night nights percent
    """.split()
)


# A verb that changes "it" with its particle: "take it up to 25%", "turn it off", "dial that
# back", "scale them down to 3".
_PARTICLE_EDIT = re.compile(
    r"^(?:take|turn|switch|dial|scale|ramp|crank|knock)\s+"
    r"(?:it|that|this|them|those|these)\s+(?:all\s+the\s+way\s+)?(?:up|down|off|on|back|out)\b",
    re.IGNORECASE,
)


# The same again for someone or somewhere else ("send the same to their IT lead", "do the
# same for the Jakarta office"): what was done before, naming no thing of its own.
_SAME_AGAIN = re.compile(
    r"^[a-z]+\s+(?:\w+\s+)?the\s+same(?:\s+(?:thing|one|again))?\s+(?:to|for|with|at|on)\b",
    re.IGNORECASE,
)


def edited(text: str) -> Edit | None:
    """The object of an edit the request opens with ("Move the demo to 11:30": demo), or
    None when the request is no edit."""
    opened, words = _opened(text)
    if _PARTICLE_EDIT.match(opened) or _SAME_AGAIN.match(opened):
        return Edit((), _has_number(opened))
    if len(words) < 2 or words[0] not in _EDIT_VERBS | {"add", "give"}:
        return None
    if words[0] == "give" and not _GIVEN_IT.match(opened):
        return None  # "give them access to Figma" asks for access, no edit
    rest = words[1:]
    given = _GIVEN_IT.match(opened)
    if given:
        # "Give it a budget of SGD 30,000": the budget of "it".
        return Edit((given.group(1).casefold(),), _has_number(opened))
    if rest[0] in _PRONOUNS or rest[0] in _PERSONS and len(rest) > 1:
        # "Bump that to 55 units": a count of units is an order's quantity ("12 seats" may
        # be of a flight or of a licence: left to the conversation).
        counted = _COUNTED_VALUE.search(opened)
        return Edit(("units",), True) if counted else Edit(())
    if rest[0] in ("to", "by") or _COUNT_MORE.match(opened):
        # "Raise to 50%", "add three more": a value of what was asked before, and no thing.
        return Edit(())
    if words[0] == "add":
        # "Add USD 8,000 to its budget": a value added to a field of the record asked about
        # before, an edit of that field.
        added = _ADDED_TO.search(opened)
        return Edit((added.group(1).casefold(),), _has_number(opened)) if added else None
    if rest[0] not in _DETERMINERS:
        return None
    if rest[1:2] == ["lot"] or rest[1:3] in (["whole", "thing"], ["entire", "thing"]):
        # "Push the whole thing a week later": all of what was asked, naming nothing.
        return Edit((), _has_number(opened))
    nouns: list[str] = []
    words_left = iter(rest[1:])
    for word in words_left:
        if word == "of" and nouns:
            # "the start of that leave": the thing is the leave as much as its start.
            following = next(words_left, "")
            if following in _DETERMINERS:
                following = next(words_left, "")
            if following and following not in _OBJECT_ENDS:
                nouns.append(following)
            break
        if word in _OBJECT_ENDS or len(nouns) == 6:
            break
        nouns.append(word)
    # The thing is the last of its words ("the linkedin year end sale campaign": a campaign).
    nouns = nouns[-3:]
    if nouns and _COUNT_CHANGED.search(opened):
        # "Change the cold-chain labels from 40 cases to 65": a count of goods changes, which
        # is an order's quantity whatever the goods are called.
        nouns.append("units")
    return Edit(tuple(nouns), _has_number(opened)) if nouns else None


# The new value of an edit in units of goods: "to 55 units", "to 300 pcs".
_COUNTED_VALUE = re.compile(
    r"\bto\s+\d[\d,.]*\s+(?:units?|pcs|pieces|items|boxes|cartons|cases|pallets)\b", re.I
)
# A count moved from one number to another: "from 40 cases to 65", "from 30 units to 24".
_COUNT_CHANGED = re.compile(r"\bfrom\s+\d[\d,]*\s+[a-z]+\s+to\s+\d", re.IGNORECASE)


def _has_number(text: str) -> bool:
    return bool(re.search(r"\d", text))


# A record's id as people type it: letters, a dash or not, digits ("PO-55102", "INV20418").
_RECORD_ID = re.compile(r"\b[A-Za-z]{2,5}-?\d{3,}\b")


def _names_a_thing(clause: str) -> bool:
    """A clause before the ask that names a record by its id ("PO-55102 with Zhenhua
    Components — push them"): it says what "them" of the ask is."""
    return bool(_RECORD_ID.search(clause)) and not _asks(clause)
