"""Agent search: BM25 and embedding ranking, tag filter, no-match rule, determinism."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest

from agents_catalog.agent_format import AgentDefinition
from mock_account.search.index import BM25Params, SearchIndex
from mock_account.search.text import split_name, terms


@dataclass(frozen=True)
class Agent:
    name: str
    title: str
    tag: str
    description: str
    examples: tuple[str, ...] = ()


AGENTS = [
    Agent(
        "BookBusinessFlight",
        "Book a flight for a business trip",
        "travel",
        "Books a plane ticket for a work trip: destination, dates and airline.",
        ("I need to fly to Berlin next Tuesday", "Get me on a plane to Toronto"),
    ),
    Agent(
        "BookHotelStay",
        "Book a hotel room",
        "travel",
        "Reserves a room for business travel: city, nights and nightly rate.",
        ("I need a hotel in Munich for three nights", "Find me a room near the office"),
    ),
    Agent(
        "UnlockAccount",
        "Reset a forgotten password",
        "it",
        "Resets your password when you are locked out after too many attempts.",
        ("I forgot my password", "My account is locked"),
    ),
    Agent(
        "ReportBrokenLaptop",
        "Report a broken laptop",
        "it",
        "Gets a laptop repaired or replaced when it will not turn on or the screen cracked.",
        ("My laptop won't turn on", "The screen of my notebook is cracked"),
    ),
    Agent(
        "ChaseOverdueInvoice",
        "Chase an overdue invoice",
        "finance",
        "Sends a payment reminder to a customer whose invoice is past its due date.",
        ("The customer has not paid invoice INV-000123", "Send a reminder for the late bill"),
    ),
    Agent(
        "TravelExpenseReport",
        "Submit travel expenses",
        "finance",
        "Files receipts of a trip (taxi, meals, flight, hotel) for reimbursement.",
        ("Claim my taxi and dinner receipts from the Berlin trip",),
    ),
]


# The BM25 mechanics are tested on their own: the blended score would blur them.
LEXICAL = BM25Params(semantic=0.0)


@pytest.fixture(scope="module")
def index() -> SearchIndex:
    return SearchIndex.build(AGENTS)


def names(hits: list) -> list[str]:
    return [hit.agent_name for hit in hits]


def test_the_matching_agent_ranks_first(index: SearchIndex) -> None:
    assert names(index.search("please book me a flight to Lisbon"))[0] == "BookBusinessFlight"
    assert names(index.search("I am locked out, I forgot my password"))[0] == "UnlockAccount"
    assert names(index.search("my laptop screen is cracked"))[0] == "ReportBrokenLaptop"
    assert names(index.search("overdue invoice reminder"))[0] == "ChaseOverdueInvoice"


def test_words_meet_through_their_stems(index: SearchIndex) -> None:
    assert names(index.search("booking hotels and rooms"))[0] == "BookHotelStay"
    assert terms("Booking flights, booked hotels") == ["book", "flight", "book", "hotel"]


def test_camel_case_names_are_searchable() -> None:
    assert split_name("ResetVPNPassword_v2") == "Reset VPN Password v2"
    lenient = BM25Params(min_evidence=0.0, semantic=0.0)
    assert names(SearchIndex.build(AGENTS, lenient).search("unlock")) == ["UnlockAccount"]


def test_title_words_weigh_more_than_description_words() -> None:
    in_title = Agent("InTitle", "Approve a purchase", "x", "Signs off a request of a buyer.")
    in_text = Agent("InText", "Sign off a request", "x", "Approves a purchase of a buyer.")
    # With two agents both using the word, its IDF is tiny: the evidence bar is lowered.
    lenient = BM25Params(min_evidence=0.0, semantic=0.0)
    hits = SearchIndex.build([in_text, in_title], lenient).search("purchase")
    assert names(hits) == ["InTitle", "InText"]
    flat = BM25Params(min_evidence=0.0, title=1.0, semantic=0.0)
    hits = SearchIndex.build([in_text, in_title], flat).search("purchase")
    assert hits[0].score == hits[1].score


def test_scores_are_between_0_and_1_and_best_first(index: SearchIndex) -> None:
    hits = index.search("book a hotel room and a flight for my business trip")
    scores = [hit.score for hit in hits]
    assert len(hits) >= 2
    assert scores == sorted(scores, reverse=True)
    assert all(0.0 < score <= 1.0 for score in scores)


def test_a_hit_carries_name_title_and_tag(index: SearchIndex) -> None:
    hit = index.search("forgot my password")[0]
    assert (hit.agent_name, hit.agent_title, hit.tag) == (
        "UnlockAccount",
        "Reset a forgotten password",
        "it",
    )


def test_tag_filter_keeps_only_that_department(index: SearchIndex) -> None:
    query = "Berlin trip flight hotel taxi receipts"
    assert {hit.tag for hit in index.search(query)} == {"travel", "finance"}
    filtered = index.search(query, tag="finance")
    assert names(filtered) == ["TravelExpenseReport"]
    assert index.search(query, tag="legal") == []


@pytest.mark.parametrize(
    "query", ["qwerty zzzz blorp", "please can you help me with this", "", "   ", "!!! ???"]
)
def test_gibberish_and_stop_words_match_nothing(index: SearchIndex, query: str) -> None:
    assert index.search(query) == []


def _crowd() -> list[Agent]:
    # Ten agents that all mention "request", and one about payslips.
    crowd = [
        Agent(f"Agent{n}", f"Handle topic {n}", "x", f"Takes your request about topic {n}.")
        for n in "ABCDEFGHIJ"
    ]
    return [*crowd, Agent("ShowPayslip", "Show my payslip", "hr", "Shows a monthly payslip.")]


def test_a_word_many_agents_share_is_no_match() -> None:
    index = SearchIndex.build(_crowd(), LEXICAL)
    scores, _ = index.raw_scores("what about my request then")
    assert 0.0 < scores.max() < index.min_bm25
    assert index.search("what about my request then") == []
    assert names(index.search("payslip")) == ["ShowPayslip"]


def test_a_long_request_about_something_else_is_no_match() -> None:
    index = SearchIndex.build(_crowd(), LEXICAL)
    query = (
        "payslip weather forecast barbecue football tournament garden party "
        "fireworks picnic sunscreen umbrella lemonade sandwiches playlist"
    )
    hits = SearchIndex.build(_crowd(), BM25Params(threshold=0.0, semantic=0.0)).search(query)
    assert names(hits) == ["ShowPayslip"] and hits[0].score < index.threshold
    assert index.search(query) == []
    # Nor is it close enough in meaning to pass that way.
    assert SearchIndex.build(_crowd()).search(query) == []


def test_thresholds_are_configurable() -> None:
    lenient = SearchIndex.build(_crowd(), BM25Params(threshold=0.0, min_evidence=0.0, semantic=0.0))
    assert lenient.threshold == 0.0 and lenient.min_bm25 == 0.0
    # Every agent sharing the word, and only those: a zero score is never a hit.
    assert len(lenient.search("what about my request then", limit=50)) == 10
    strict = SearchIndex.build(_crowd())
    assert strict.threshold == BM25Params().threshold > 0.0
    assert strict.min_bm25 > 0.0


def test_limit_caps_the_hits(index: SearchIndex) -> None:
    query = "book a hotel room and a flight for my business trip"
    assert len(index.search(query, limit=1)) == 1
    with pytest.raises(ValueError, match="limit"):
        index.search(query, limit=0)


def test_same_agents_same_query_same_hits() -> None:
    query = "book a hotel room and a flight for my business trip"
    first = SearchIndex.build(AGENTS).search(query)
    again = SearchIndex.build(list(AGENTS)).search(query)
    assert first == again


def test_equal_scores_are_listed_by_name() -> None:
    twin_b = Agent("ChairsBeta", "Order office chairs", "x", "Orders chairs.")
    twin_a = Agent("ChairsAlpha", "Order office chairs", "x", "Orders chairs.")
    hits = SearchIndex.build([twin_b, twin_a], BM25Params(min_evidence=0.0)).search("chairs")
    assert len(hits) == 2
    assert names(hits) == ["ChairsAlpha", "ChairsBeta"]
    assert hits[0].score == hits[1].score


def test_duplicate_names_are_refused() -> None:
    with pytest.raises(ValueError, match="repeated: UnlockAccount"):
        SearchIndex.build([AGENTS[2], AGENTS[2]])


def test_an_empty_index_matches_nothing() -> None:
    assert SearchIndex.build([]).search("book a flight") == []


def test_agent_definitions_can_be_indexed_directly() -> None:
    agent = AgentDefinition(
        name="RenewContract",
        title="Renew a supplier contract",
        tag="legal",
        description="Extends a contract that is about to expire.",
        examples=["Our cleaning contract runs out next month"],
        main=[{"end": {}}],
    )
    hits = SearchIndex.build([agent, *AGENTS]).search("the contract expires soon, renew it")
    assert names(hits)[0] == "RenewContract"


def test_a_paraphrase_with_no_word_in_common_is_found_by_meaning(index: SearchIndex) -> None:
    query = "I can't sign in anymore, it says too many tries"
    assert names(index.search(query)) == ["UnlockAccount"]
    assert SearchIndex.build(AGENTS, LEXICAL).search(query) == []


@pytest.mark.parametrize(
    "query", ["what about next week?", "sounds good, thanks a lot", "and for my colleague too"]
)
def test_chat_follow_ups_with_content_words_match_nothing(index: SearchIndex, query: str) -> None:
    assert index.search(query) == []


def test_the_blended_score_adds_meaning_to_words(index: SearchIndex) -> None:
    query = "overdue invoice reminder"
    (lexical,) = SearchIndex.build(AGENTS, LEXICAL).search(query, limit=1)
    (blended,) = index.search(query, limit=1)
    similarity = index.similarities(query)[[a.name for a in AGENTS].index(lexical.agent_name)]
    weight = index.params.semantic
    assert 0.0 < similarity <= 1.0
    assert blended.score == pytest.approx((1 - weight) * lexical.score + weight * similarity, 1e-3)


def test_without_a_semantic_weight_no_model_is_used() -> None:
    class NoModel:
        def encode(self, texts: object, *, keep: bool = False) -> object:
            raise AssertionError("the model was asked to embed")

    index = SearchIndex.build(AGENTS, LEXICAL, encoder=NoModel())  # type: ignore[arg-type]
    assert index.vectors is None
    assert names(index.search("overdue invoice reminder"))[0] == "ChaseOverdueInvoice"
    assert not index.similarities("overdue invoice reminder").any()


def test_a_short_request_is_matched_by_its_words_only(index: SearchIndex) -> None:
    # Two content words close in meaning to an agent but naming none of its words: as
    # likely a chat follow-up as a request, so it is no match ...
    assert index.search("login trouble") == []
    # ... unless the rule is relaxed.
    relaxed = SearchIndex.build(AGENTS, BM25Params(min_semantic_terms=1))
    assert names(relaxed.search("login trouble")) == ["UnlockAccount"]


def test_a_place_named_in_another_agents_example_does_not_pull_the_request() -> None:
    # The cancel agent's example names Warsaw and a date; a booking request naming the
    # same city and date must not lean towards it for that.
    cancel = Agent(
        "CancelBusinessTrip",
        "Cancel a booked trip",
        "travel",
        "Cancels a trip you no longer need and tells you what is refunded.",
        ("The Warsaw workshop on 3 March was called off, cancel my booking",),
    )
    index = SearchIndex.build([*AGENTS, cancel], LEXICAL)
    query = "fly me to Warsaw on 3 March"
    scores, _ = index.raw_scores(query)
    assert scores[-1] == 0.0 < scores[0]
    assert names(index.search(query)) == ["BookBusinessFlight"]


def test_a_name_that_opens_an_example_does_not_pull_the_request() -> None:
    # "Kestrel Energy called off their order" kept "kestrel" (a capital at the start of a
    # sentence says nothing), so "Order 5 for Kestrel Energy" was a cancellation: the
    # prospect's request to order had an order of theirs cancelled. Another example names
    # Kestrel inside a sentence, which shows it is a name.
    order = Agent(
        "PlaceCustomerOrder",
        "Place a sales order for a customer",
        "sales",
        "Enters a new sales order for a client: which product and how many units.",
        ("Book an order of 40 standing desks for Lakeside Dental",),
    )
    cancel = Agent(
        "CancelCustomerOrder",
        "Cancel a customer's order",
        "sales",
        "Cancels an order a customer no longer wants and releases the stock.",
        ("Kestrel Energy called off their order, cancel it",),
    )
    quote = Agent(
        "CreateSalesQuote",
        "Prepare a price quote",
        "sales",
        "Builds a priced quotation for a prospect.",
        ("Our customer Kestrel wants a quote for 12 chairs",),
    )
    index = SearchIndex.build([order, cancel, quote], LEXICAL)
    scores, _ = index.raw_scores("Place an order of 5 for Kestrel Energy")
    assert scores[0] > scores[1]
    assert names(index.search("Place an order of 5 for Kestrel Energy"))[0] == "PlaceCustomerOrder"
    # Without another example naming it, the opening word stays a word of the example.
    alone = SearchIndex.build([order, cancel], LEXICAL)
    assert "kestrel" in alone.vocabulary


def test_an_id_routes_by_the_kind_of_record_it_names() -> None:
    incident = Agent(
        "CheckIncidentStatus",
        "Check the status of an incident",
        "engineering",
        "Tells you where a production incident stands.",
    )
    index = SearchIndex.build([*AGENTS, incident], LEXICAL)
    assert names(index.search("any update on INC-00013?"))[:1] == ["CheckIncidentStatus"]
    assert names(index.search("has INV-000123 been paid?"))[:1] == ["ChaseOverdueInvoice"]


class _Directions:
    """A stand-in encoder: a text's vector is set by the first key word it contains, so
    each similarity is known exactly."""

    def __init__(self, directions: dict[str, tuple[float, ...]], default: tuple[float, ...]):
        self.directions = directions
        self.default = default

    def encode(self, texts: list[str], *, keep: bool = False) -> np.ndarray:
        rows = []
        for text in texts:
            found = [v for word, v in self.directions.items() if word in text.lower()]
            rows.append(found[0] if found else self.default)
        vectors = np.array(rows, dtype=np.float32)
        return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


def _at(cosine: float) -> tuple[float, float]:
    return (cosine, float(np.sqrt(1.0 - cosine**2)))


def test_an_agent_close_behind_a_hit_is_listed_too() -> None:
    # No shared word: both agents are found by meaning only. The flight agent passes the
    # similarity floor, the hotel agent just misses it but is close behind in score.
    flight = Agent("BookFlight", "Book a flight", "travel", "Books a flight.", ("a flight",))
    hotel = Agent("BookHotel", "Book a hotel", "travel", "Books a hotel.", ("a hotel",))
    encoder = _Directions({"flight": _at(0.45), "hotel": _at(0.38)}, default=(1.0, 0.0))
    query = "somewhere to sleep near the venue for three nights"

    def hits(relative: float) -> list[str]:
        params = BM25Params(relative=relative)
        index = SearchIndex.build([flight, hotel], params, encoder=encoder)  # type: ignore[arg-type]
        return names(index.search(query))

    assert hits(relative=0.7) == ["BookFlight", "BookHotel"]
    assert hits(relative=1.01) == ["BookFlight"]


def test_the_relative_rule_leaves_short_follow_ups_alone() -> None:
    flight = Agent("BookFlight", "Book a flight", "travel", "Books a flight.", ("a flight",))
    hotel = Agent("BookHotel", "Book a hotel", "travel", "Books a hotel.", ("a hotel",))
    encoder = _Directions({"flight": _at(0.9), "hotel": _at(0.85)}, default=(1.0, 0.0))
    index = SearchIndex.build([flight, hotel], encoder=encoder)  # type: ignore[arg-type]
    # Two content words: no similarity path and no relative one, whatever the meaning.
    assert names(index.search("same venue again")) == []
    # One word names the flight agent: only it is a hit.
    assert names(index.search("flight again")) == ["BookFlight"]


def test_an_agent_is_embedded_as_its_description_and_the_centroid_of_its_examples() -> None:
    encoder = _Directions(
        {"first": (0.0, 1.0, 0.0), "second": (0.0, 0.0, 1.0)}, default=(1.0, 0.0, 0.0)
    )
    asked = Agent("Asked", "Do a thing", "x", "Does it.", ("the first way", "the second way"))
    silent = Agent("Silent", "Do another", "x", "Does that.")
    index = SearchIndex.build([asked, silent], encoder=encoder)  # type: ignore[arg-type]
    assert index.vectors is not None
    half = float(np.sqrt(0.5)) / 2.0
    assert index.vectors[0] == pytest.approx([0.5, half, half], abs=1e-6)
    # No examples: the description stands for both.
    assert index.vectors[1] == pytest.approx([1.0, 0.0, 0.0], abs=1e-6)
    # The similarity is the mean of the two cosines.
    assert index.similarities("the first one")[0] == pytest.approx(half, abs=1e-6)
