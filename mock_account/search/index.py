"""Agent search: Okapi BM25 blended with sentence-embedding similarity.

Two signals rank the agents. The lexical one is BM25 over each agent's title, examples,
description and name (below). The semantic one is the similarity in meaning between the
request's sentence embedding and the agent (see `embeddings`): the mean of its cosine
similarities to what the agent says it does (title and description) and to how people
ask for it (the centroid of its examples, each embedded alone). It finds "I can't sign
in, it says too many tries" for an agent about locked accounts that never says "sign" or
"tries". The shown score is ``(1 - semantic) * lexical + semantic * similarity``, both
parts on 0..1, and hits are listed by it.

Requests state facts (dates, amounts, ids, names of people, companies and places), and
so do the agents' examples; they say nothing about which agent is meant. The text
analysis (`search_text`, `facts`) leaves out numbers, dates and currencies on both
sides, reads an id by its kind (``ORD-000042``: an order) and leaves out of the examples
the capitalised names that no title or description uses, so a request does not lean
towards an agent whose example named the same city or customer.

Fields are weighted the BM25F way: an occurrence of a term in the title counts
`title` times, in an example `examples` times, and so on; the weighted counts and the
weighted length then go through the usual BM25 saturation and length normalisation
(`k1`, `b`). Rare terms weigh more through the (non-negative) Okapi IDF.

The lexical part is between 0 and 1: the BM25 score divided by the most any agent could
score for that query, i.e. the sum over the query's terms of ``idf * (k1 + 1)``, where a
query term no agent uses counts with the highest possible IDF. So it says how much of
what the request says an agent covers; the division is the same for every agent.

No match: a request made only of stop words and chat filler matches nothing. Otherwise
an agent is a hit when it passes the lexical rule or the semantic one.
Lexical: its lexical score reaches `threshold` (the share of the request it covers, an
absolute value on the 0..1 scale) *and* its BM25 score reaches `min_bm25` (the evidence:
`min_evidence` times the most that a word used by a single agent can score, so it scales
with the account's size). The first drops an agent that shares a word or two with a long
request about something else; the second drops a short chat follow-up ("what about next
week?") that happens to share one common word with some agent.
Semantic: the request has at least `min_semantic_terms` content words and the agent's
similarity reaches `min_similarity`. Short follow-ups ("change it to Friday", "what's
the status?") sit close to many agents in meaning while naming none: they are left to
the lexical rule. Gibberish shares no word and is close to no agent in meaning.
Agreed: a shorter request that no rule matched ("I need a hotel there") still matches the
agent that is at once the best by meaning, when that similarity reaches
`agreed_similarity`, and the best by its words or within `agreed_words` of it ("Invoice them
for it" shares its one word with every invoice agent and means the billing one): a word of
the agent and its meaning agree, where a chat follow-up ("what's the status?") names a word
that several agents share and leans in meaning towards another.
Relative: once a request of at least `min_semantic_terms` content words has a hit, an
agent whose blended score reaches `relative` times the best hit's is a hit too. Rich
requests (names, dates, amounts) spread their evidence thin, so the right agent can
miss both absolute rules while ranking next to one that passes; short follow-ups are
left to the absolute rules.
Kind of agent: a question ("is invoice X still unpaid?") leans to agents that answer
(`question_acting`), and an imperative of doing ("open a case for them") to agents that act
or are named for that verb (`doing_answering`), each a light damping of the other kind.

With no match, the follow-up behaviour sends a follow-up to the agent that answered
last.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from mock_account.search.embeddings import SentenceEncoder, default_encoder
from mock_account.search.focus import focus
from mock_account.search.text import content_word_count, names_inside, split_name, terms


class Searchable(Protocol):
    """What the index needs of an agent (an AgentDefinition has all of it)."""

    @property
    def name(self) -> str: ...
    @property
    def title(self) -> str: ...
    @property
    def tag(self) -> str: ...
    @property
    def description(self) -> str: ...
    @property
    def examples(self) -> Sequence[str]: ...


@dataclass(frozen=True)
class SearchHit:
    agent_name: str
    agent_title: str
    tag: str
    score: float


@dataclass(frozen=True)
class BM25Params:
    """Ranking parameters. The BM25 ones are tuned on the account's evaluation set; the
    similarity floor on agents' own examples held out of the index and on chat filler;
    the semantic weight and the relative rule on the development and first held-out
    sets (never on the fresh one). ``semantic=0`` ranks by BM25 alone and loads no model."""

    k1: float = 1.2
    b: float = 0.9
    title: float = 2.0
    examples: float = 1.5
    description: float = 1.0
    name: float = 1.0
    threshold: float = 0.05
    min_evidence: float = 0.55
    semantic: float = 0.4
    min_similarity: float = 0.40
    min_semantic_terms: int = 3
    relative: float = 0.7
    agreed_similarity: float = 0.5
    agreed_words: float = 0.9
    question_acting: float = 0.9
    doing_answering: float = 0.9
    edits_act: bool = True
    other_side: float = 0.6
    unnamed_edit: float = 0.6
    few_named: int = 8


@dataclass(frozen=True)
class _Agent:
    name: str
    title: str
    tag: str


@dataclass(eq=False)
class SearchIndex:
    """A BM25 index over a fixed set of agents; build it with `SearchIndex.build`."""

    params: BM25Params
    agents: tuple[_Agent, ...]
    vocabulary: dict[str, int]
    idf: np.ndarray  # (terms,)
    weights: np.ndarray  # (agents, terms): each term's BM25 contribution per agent
    tags: np.ndarray = field(repr=False)  # (agents,) tag per agent
    # (agents,) whether each agent acts rather than answers (``acts`` of what was indexed)
    acting: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=bool), repr=False)
    creating: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=bool), repr=False)
    # (agents,) the verb each agent is named for ("open" of OpenSupportCase)
    verbs: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=object), repr=False)
    # Per agent, the terms of its title and name: what it is about ("seat" of ChooseFlightSeat)
    own_terms: tuple[frozenset[str], ...] = field(default=(), repr=False)
    # (agents, dimensions) unit vectors, or None when ranking by BM25 alone
    vectors: np.ndarray | None = field(default=None, repr=False)
    encoder: SentenceEncoder | None = field(default=None, repr=False)

    @property
    def threshold(self) -> float:
        """The least lexical score (0..1) of a hit found by its words."""
        return self.params.threshold

    @property
    def min_bm25(self) -> float:
        """The least BM25 score of a hit: `min_evidence` times the most that a word
        used by a single agent can score."""
        n = len(self.agents)
        own_word_idf = float(np.log1p((n - 0.5) / 1.5))  # a word only one agent uses
        return self.params.min_evidence * own_word_idf * (self.params.k1 + 1.0)

    def _rare_word_idf(self) -> float:
        # The IDF of a word no agent uses: the most any single query word can weigh.
        n = len(self.agents)
        return float(np.log1p((n + 0.5) / 0.5))

    @classmethod
    def build(
        cls,
        agents: Sequence[Searchable],
        params: BM25Params | None = None,
        encoder: SentenceEncoder | None = None,
    ) -> SearchIndex:
        """Index `agents`; with a semantic weight, `encoder` (the packaged model by
        default) embeds them once."""
        params = params or BM25Params()
        names = [agent.name for agent in agents]
        duplicates = sorted({n for n in names if names.count(n) > 1})
        if duplicates:
            raise ValueError(f"agent names must be unique; repeated: {', '.join(duplicates)}")
        # What the agents say about themselves: a capitalised word of an example outside
        # it is a name (a city, a company, a person) and no term of the index.
        known = {
            term
            for agent in agents
            for text in (agent.title, agent.description, split_name(agent.name))
            for term in terms(text)
        }
        # A word some example uses as a name is a name where it opens an example too.
        names = {
            name for agent in agents for name in names_inside(". ".join(agent.examples), known)
        }
        documents = [_weighted_terms(agent, params, known, names) for agent in agents]
        vocabulary: dict[str, int] = {}
        for document in documents:
            for term in document:
                vocabulary.setdefault(term, len(vocabulary))
        tf = np.zeros((len(agents), len(vocabulary)))
        for row, document in enumerate(documents):
            for term, weight in document.items():
                tf[row, vocabulary[term]] = weight
        n = len(agents)
        df = np.count_nonzero(tf, axis=0)
        idf = np.log1p((n - df + 0.5) / (df + 0.5))
        length = tf.sum(axis=1)
        average = float(length.mean()) if n else 0.0
        norm = params.k1 * (1.0 - params.b + params.b * length / (average or 1.0))
        with np.errstate(invalid="ignore", divide="ignore"):
            saturated = np.where(tf > 0, tf * (params.k1 + 1.0) / (tf + norm[:, None]), 0.0)
        vectors = None
        if params.semantic > 0.0 and agents:
            encoder = encoder or default_encoder()
            vectors = _agent_vectors(agents, encoder)
        return cls(
            params=params,
            agents=tuple(_Agent(a.name, a.title, a.tag) for a in agents),
            vocabulary=vocabulary,
            idf=idf,
            weights=saturated * idf[None, :],
            tags=np.array([a.tag for a in agents], dtype=object),
            acting=np.array([bool(getattr(a, "acts", False)) for a in agents], dtype=bool),
            creating=np.array([bool(getattr(a, "creates", False)) for a in agents], dtype=bool),
            verbs=np.array([split_name(a.name).split()[0].lower() for a in agents], dtype=object),
            own_terms=tuple(frozenset(terms(f"{a.title} {split_name(a.name)}")) for a in agents),
            vectors=vectors,
            encoder=encoder if vectors is not None else None,
        )

    def raw_scores(self, query: str) -> tuple[np.ndarray, float]:
        """Each agent's BM25 score for `query`, and the best score possible for it."""
        wanted = set(terms(query))
        known = sorted(self.vocabulary[t] for t in wanted if t in self.vocabulary)
        ceiling = (self.params.k1 + 1.0) * (
            float(self.idf[known].sum()) + self._rare_word_idf() * (len(wanted) - len(known))
        )
        scores = self.weights[:, known].sum(axis=1) if known else np.zeros(len(self.agents))
        return scores, ceiling

    def similarities(self, query: str) -> np.ndarray:
        """Each agent's cosine similarity to `query` (negatives as 0); zeros without a model."""
        if self.vectors is None or self.encoder is None:
            return np.zeros(len(self.agents))
        (vector,) = self.encoder.encode([query])
        return np.clip(self.vectors @ vector, 0.0, 1.0).astype(np.float64)

    def _blended(self, text: str, weight: float) -> np.ndarray:
        """The blended score of every agent for ``text`` (no hit rules)."""
        scores, ceiling = self.raw_scores(text)
        lexical = scores / ceiling if ceiling > 0.0 else np.zeros(len(self.agents))
        similarity = self.similarities(text) if weight > 0.0 else np.zeros(len(self.agents))
        return (1.0 - weight) * lexical + weight * similarity

    def _mentioning(self, words: Sequence[str]) -> np.ndarray:
        """Which agents use one of these words (title, examples, description or name)."""
        known = [self.vocabulary[t] for t in terms(" ".join(words)) if t in self.vocabulary]
        if not known:
            return np.zeros(len(self.agents), dtype=bool)
        return self.weights[:, known].sum(axis=1) > 0.0

    def _named_for(self, words: Sequence[str]) -> np.ndarray:
        """Which agents have one of these words in their title or name."""
        wanted = set(terms(" ".join(words)))
        return np.array([bool(wanted & own) for own in self.own_terms], dtype=bool)

    def _agreed(self, scores: np.ndarray, similarity: np.ndarray) -> list[int]:
        """The agent a short request names by its words and means most clearly: best by
        meaning, at `agreed_similarity` or more, and best by words too, or nearly so
        (`agreed_words` of the best word score: "Invoice them for it" shares its one word
        with every invoice agent, and means the one that bills) ([] otherwise)."""
        best, meant = int(np.argmax(scores)), int(np.argmax(similarity))
        if scores[best] <= 0.0 or similarity[meant] < self.params.agreed_similarity:
            return []
        return [meant] if scores[meant] >= self.params.agreed_words * scores[best] else []

    def search(self, query: str, *, tag: str | None = None, limit: int = 10) -> list[SearchHit]:
        """Agents matching `query`, best first; only those passing the no-match rule."""
        if limit < 1:
            raise ValueError(f"limit must be at least 1, got {limit}")
        # What is asked, without the reasons around it; an edit of "it" names no agent.
        asked = focus(query)
        query, edit = asked.text, asked.edit
        if edit is not None and not edit.nouns:
            return []
        if asked.status:
            # "Where's it at?" names no agent's word; what it asks for is a status.
            query = f"{query} status"
        scores, ceiling = self.raw_scores(query)
        # No content word (gibberish still has some): a chat follow-up, never a match.
        if ceiling <= 0.0 or not len(scores):
            return []
        lexical = scores / ceiling
        keep = (scores > 0.0) & (lexical >= self.params.threshold)
        keep &= scores >= self.min_bm25
        similarity = self.similarities(query)
        weight = self.params.semantic if self.vectors is not None else 0.0
        blended = (1.0 - weight) * lexical + weight * similarity
        # A request rich in facts (places, dates, names) has few index terms left but is no
        # short follow-up: it is read for its meaning too.
        if content_word_count(query) >= self.params.min_semantic_terms:
            keep |= similarity >= self.params.min_similarity
            # A request that matched: agents nearly as good as its best hit are hits too.
            if keep.any():
                keep |= blended >= self.params.relative * blended[keep].max()
        elif not keep.any():
            keep[self._agreed(scores, similarity)] = True
        if asked.ask is not None:
            # The clauses that ask weigh as much as the context around them ("Lumen Clinics
            # says their portal throws 500s. Open a high-priority case for them.").
            blended = (blended + self._blended(asked.ask, weight)) / 2.0
        if asked.question and len(self.acting) == len(blended):
            # A question is answered by an agent that answers, before one that acts on it
            # ("is invoice X still unpaid?" is no reminder to send).
            blended = np.where(self.acting, blended * self.params.question_acting, blended)
        if asked.doing is not None and len(self.verbs) == len(blended):
            # Something to be done ("open a high-priority case for them") is done by an agent
            # that acts, or one named for that very verb, before one that reports on it.
            answering = ~self.acting & (self.verbs != asked.doing)
            blended = np.where(answering, blended * self.params.doing_answering, blended)
            named = self._named_for([asked.doing])
            if asked.wanted and 0 < int(named.sum()) <= self.params.few_named:
                # "I need to claim the dinner": the few agents named for that very verb (an
                # expense claim) before one the rest of the request resembles (an event).
                blended = np.where(named, blended, blended * self.params.doing_answering)
        if asked.done is not None and len(self.verbs) == len(blended):
            # "My TR 280 just got cancelled": news of a cancellation, for the agent that deals
            # with one (rebooking), not the one that cancels.
            verb = next(
                (v for v in _bases(asked.done) if v in self.verbs and v != asked.doing), None
            )
            if verb is not None:
                blended = np.where(
                    self.verbs == verb, blended * self.params.doing_answering, blended
                )
        if asked.side is not None and len(self.tags) == len(blended):
            # Quotes and orders exist on both sides of a trade: one the request is not on
            # ranks a little lower ("get three quotes for 60 chairs" buys; "Pacifica wants a
            # quote for 250 scanners" sells).
            other = "sales" if asked.side == "buy" else "procurement"
            blended = np.where(self.tags == other, blended * self.params.other_side, blended)
        if edit is not None and edit.valued and not keep.any() and len(self.acting) == len(keep):
            # "Give it a budget of SGD 30,000" is short and names one word: the agents that
            # act and are named for the thing given a value are its matches.
            keep = self.acting & self._named_for(edit.nouns)
        if edit is not None:
            keep &= self._mentioning(edit.nouns)
            if self.params.edits_act and len(self.acting) == len(keep):
                # An edit changes a record: an agent that acts, or one about that very thing
                # ("change my seat" to the seat agent), not one that only mentions it ("raise
                # the base to 102000" is no audience segment to build over a customer base).
                keep &= self.acting | self._named_for(edit.nouns)
            named = self._named_for(edit.nouns)
            if asked.on_record and len(self.creating) == len(blended):
                # "On order SO-77120, drop the scanners to 24": an edit of a record the request
                # names by its reference changes that record; it makes no new one.
                blended = np.where(self.creating, blended * self.params.unnamed_edit, blended)
            if edit.valued and (keep & named).any():
                # The agent named for the thing edited ("its budget": the one that changes a
                # campaign's budget) before one whose work only touches it (reconciling spend).
                blended = np.where(named, blended, blended * self.params.unnamed_edit)
        if tag is not None:
            keep &= self.tags == tag
        # Best first; equal scores in name order so every run lists the same hits. As Python
        # numbers: indexing numpy arrays one element at a time cost more than the scoring.
        score_of, agents = blended.tolist(), self.agents
        order = sorted(np.flatnonzero(keep).tolist(), key=lambda i: (-score_of[i], agents[i].name))
        return [
            SearchHit(
                agent_name=agents[i].name,
                agent_title=agents[i].title,
                tag=agents[i].tag,
                score=round(score_of[i], 4),
            )
            for i in order[:limit]
        ]


def _bases(participle: str) -> tuple[str, ...]:
    """The verbs a past participle may be of: "cancelled" -> cancel, "approved" -> approve,
    "delivered" -> deliver."""
    stem = participle[:-2]
    return (stem, stem[:-1], participle[:-1]) if len(stem) > 2 else (stem, participle[:-1])


def _agent_vectors(agents: Sequence[Searchable], encoder: SentenceEncoder) -> np.ndarray:
    """Each agent's meaning, (agents, dimensions): the mean of two unit vectors, what it says
    it does (title and description, embedded as one text) and how people ask for it (the
    centroid of its examples, each embedded alone; the description again when it has none).
    A request's similarity to an agent is then the mean of its cosine similarities to the two.
    """
    described = encoder.encode([f"{a.title}. {a.description}" for a in agents], keep=True)
    examples = [example for agent in agents for example in agent.examples]
    asked = encoder.encode(examples, keep=True) if examples else described[:0]
    rows = []
    start = 0
    for row, agent in enumerate(agents):
        own = asked[start : start + len(agent.examples)]
        start += len(agent.examples)
        centroid = own.sum(axis=0) if len(own) else described[row]
        norm = float(np.linalg.norm(centroid))
        rows.append((described[row] + (centroid / norm if norm else described[row])) / 2.0)
    return np.stack(rows).astype(np.float32)


def _weighted_terms(
    agent: Searchable, params: BM25Params, known: set[str], names: set[str]
) -> dict[str, float]:
    counts: dict[str, float] = {}
    fields = (
        (terms(agent.title), params.title),
        # One example per sentence, so each one's first word counts as a sentence start.
        (terms(". ".join(agent.examples), known=known, names=names), params.examples),
        (terms(agent.description), params.description),
        (terms(split_name(agent.name)), params.name),
    )
    for found, weight in fields:
        for term in found:
            counts[term] = counts.get(term, 0.0) + weight
    return counts
