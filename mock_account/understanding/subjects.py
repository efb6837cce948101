"""What a request is about, in its own words: the runs of content words no other fact took.

"Does our health insurance cover dental treatment?", "silence the replication lag alert",
"a demo covering the fleet tracking and billing modules": the subject of such a request is a
noun phrase that is neither a name, a date, an amount nor a code, and an answer that drops it
reads as if the question was not heard. Without a tagger, a phrase is a run of words that are
not function words, verbs (a list of the common ones and words in "-ed") or numbers, between
the facts the other extractors claimed. Which of them matter depends on who answers: an agent
that books flights need not say "flight" back, so the caller drops the words the agent uses of
itself (``Subject.beyond``).
"""

from __future__ import annotations

from collections.abc import Iterator

from .facts import ThingFact
from .lexicon import FUNCTION_WORDS, MONTH_WORDS, REQUEST_WORDS, WEEKDAY_WORDS
from .text import Analysis

# Verbs (and their usual forms) that end a phrase: what is done, not what it is about.
_VERBS = frozenset(
    """
    be been being am is are was were have has had having do does did doing done get gets got
    woke wake carry carries found find feel feeling threatening telling pretending
    getting go goes went going gone come comes came coming keep keeps kept want wants wanted
    need needs like likes think know knows see sees look looks looking make makes made take
    takes took give gives gave use uses using work works seem seems feel feels try tries
    tried leave leaves left call calls report reports load loads show shows say says said
    pay pays paid run runs ran move moves live believe hold bring brings happen happens write
    writes wrote provide provides sit stand lose loses lost add adds allow meet include
    continue set learn change changes lead understand watch follow stop create speak read
    spend grow open opens win offer offers offered remember consider appear buy wait serve
    send sends expect build stay fall cut reach remain suggest raise pass sell require
    decide pull cover covers covered cancel book booked order ordered arrive arrives hit
    start starts join joins go let lets put puts ask asks asked tell tells told check
    confirm fix fixed break breaks broke broken crash crashes crashed fail fails drop drops
    would could should shall might must may can will won't can't don't doesn't didn't isn't
    aren't wasn't weren't haven't hasn't couldn't wouldn't shouldn't
    """.split()
)
# Words that say nothing of the subject: quantities without a count, vague nouns, filler.
_VAGUE = frozenset(
    """
    lot lots thing things stuff way ways time times bit kind sort type something anything
    everything nothing someone anyone everyone everybody nobody people person one ones other
    others else sure right left yes no maybe please thanks thank just also even still yet
    really very quite already again anyway actually instead whole same new old good bad
    big small best better more most less least many much few several each every all both
    any some own next last first second third today tomorrow yesterday tonight morning
    afternoon evening night week weeks month months year years day days hour hours minute
    minutes moment now soon later earlier ago well back able unable due end fine sorry sure
    inch inches cm mm kg km gb tb mb metre metres meter meters mile miles
    """.split()
)
# Verbs in "-ing" open a phrase as the verb they are ("pretending to be", "starting"), where
# they end one as a noun ("fleet tracking", "billing").
_MAX_WORDS = 4


def _breaks(folded: str) -> bool:
    return (
        folded in FUNCTION_WORDS
        or folded in REQUEST_WORDS
        or folded in _VERBS
        or folded in _VAGUE
        or folded in MONTH_WORDS
        or folded in WEEKDAY_WORDS
        or (folded.endswith("ed") and len(folded) > 4)
        or (folded.endswith("ly") and len(folded) > 4)
        or folded.endswith(("n't", "n’t", "'ll", "’ll", "'re", "’re", "'ve", "’ve"))
        or folded[0].isdigit()
        or "'" in folded
        or "’" in folded
    )


def find_subjects(analysis: Analysis) -> Iterator[ThingFact]:
    """Runs of free content words, left to right ("dental treatment", "replication lag")."""
    words = analysis.words
    text = analysis.text
    run: list[int] = []

    def flush() -> Iterator[ThingFact]:
        while run and words[run[0]].folded.endswith("ing"):
            run.pop(0)
        single = len(run) == 1 and (len(words[run[0]].text) < 4 or words[run[0]].sentence_start)
        if run and not single:
            # One word that opens the request is its verb as often as not ("Rent me a car").
            start, end = words[run[0]].start, words[run[-1]].end
            value = " ".join(text[start:end].split())
            yield ThingFact("subject", value, text[start:end], (start, end))
        run.clear()

    for i, word in enumerate(words):
        gap = text[words[i - 1].end : word.start] if i else ""
        joined = run and gap.strip() in ("", "-")
        if (
            _breaks(word.folded)
            or not analysis.is_free(word.start, word.end)
            or (run and not joined)
            or len(run) == _MAX_WORDS
        ):
            yield from flush()
            if _breaks(word.folded) or not analysis.is_free(word.start, word.end):
                continue
        run.append(i)
    yield from flush()
