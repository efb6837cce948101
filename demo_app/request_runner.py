"""Send a message that may hold several requests: each part searched and run in one conversation.

The client side of multi-part requests and of the two-best choice, for any ``DemoClient``
(in-process or over HTTP), so a script gets what the demo shows::

    run = start_request(client, user, "Book me a flight to Oslo on Monday and file "
                        "last week's taxi receipt")
    while run.pending_ask is not None:          # a part paused on an ask
        run = answer_pending(client, user, run, {...the answers...})
    print(run.composed())

Each part (``split_request`` of ``mock_account.understanding.request_parts``) is searched like
a new request, the best match runs (or, with the account's ``showResults`` behaviour and two
close matches, the run stops on ``choice`` until ``choose`` names one) on the conversation of
the parts before it, so a later part builds on what an earlier one saved. A part that pauses
on an ``ask`` stops the run there: the remaining parts go on once ``answer_pending`` has
answered it. A part that fails (or matches nothing) is reported and the next part still runs,
since each part is a request of its own, except when the conversation itself refuses requests.

Every function returns a new ``RequestRun``; none changes the one it is given.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from mock_account.understanding.request_parts import split_request

from .agent_runs import NO_MATCH
from .search_choice import two_best_choice
from .views import AnswerView, ClientError, Match, SearchOutcome, check_query

# Result codes after which no later part can run in the same conversation either.
STOPPING_CODES = frozenset({"unknownConversation", "mustLogin"})


if TYPE_CHECKING:  # the client's module imports both clients: only the type is wanted here
    from .client import DemoClient as RunnerClient


@dataclass(frozen=True)
class PartResult:
    """What one part of the request got: an answer, or why nothing ran."""

    index: int  # 0-based position of the part in the request
    text: str
    answer: AnswerView | None
    problem: str | None = None


@dataclass(frozen=True)
class PendingChoice:
    """A part whose two best matches are close: the user picks which agent runs it."""

    index: int
    outcome: SearchOutcome
    options: tuple[Match, Match]


@dataclass(frozen=True)
class RequestRun:
    """A request's parts and how far they got."""

    request: str
    parts: tuple[str, ...]
    convid: str | None = None
    results: tuple[PartResult, ...] = ()
    next_part: int = 0  # the next part to search
    choice: PendingChoice | None = None
    stopped: str | None = None  # why the remaining parts cannot run
    behavior: str | None = None  # the searchBehavior the last search reported

    @classmethod
    def waiting_on(cls, pending: AnswerView) -> RequestRun:
        """A one-part run already paused on ``pending``'s ask (e.g. a reopened conversation)."""
        return cls(
            pending.query,
            (pending.query,),
            pending.convid,
            (PartResult(0, pending.query, pending),),
            next_part=1,
        )

    @property
    def is_multi(self) -> bool:
        return len(self.parts) > 1

    @property
    def last_answer(self) -> AnswerView | None:
        return next((r.answer for r in reversed(self.results) if r.answer is not None), None)

    @property
    def pending_ask(self) -> AnswerView | None:
        """The answer waiting for the user's answers: the last successful one, if an ask.

        An answer the agent refused leaves the run paused where it was (nothing of a
        failed run is saved), so failed answers after the ask do not close it.
        """
        for result in reversed(self.results):
            if result.answer is not None and result.answer.success:
                return result.answer if result.answer.is_ask else None
        return None

    @property
    def remaining(self) -> tuple[str, ...]:
        """The parts not sent yet (a part waiting on a choice included)."""
        return self.parts[self.next_part :]

    @property
    def done(self) -> bool:
        """Nothing waits on the user and nothing more will be sent."""
        waiting = self.pending_ask is not None or self.choice is not None
        return not waiting and (not self.remaining or self.stopped is not None)

    def composed(self) -> str:
        """One answer for the whole request, part by part, each naming its agent."""
        lines: list[str] = []
        total = len(self.parts)
        for result in self.results:
            label = f"{result.index + 1}/{total} {result.text}" if self.is_multi else result.text
            answer = result.answer
            if answer is None:
                lines.append(f"{label}\n  (nothing ran: {result.problem})")
            elif not answer.success:
                lines.append(f"{label}\n  {answer.agent} could not answer: {answer.error}")
            else:
                said = " ".join(p.text for p in answer.parts if p.content_type == "text")
                if answer.ask is not None:
                    said = f"{said} (waiting for your answers: {answer.ask.message})".strip()
                lines.append(f"{label}\n  {answer.agent}: {said}")
        if self.choice is not None:
            first, second = self.choice.options
            lines.append(
                f"{self.choice.index + 1}/{total} {self.parts[self.choice.index]}\n"
                f"  (choose the agent: {first.agent_name} or {second.agent_name})"
            )
        left = self.remaining[1:] if self.choice is not None else self.remaining
        if left and self.stopped:
            lines.append(f"Not sent ({self.stopped}): " + "; ".join(left))
        elif left:
            lines.append("Still to do: " + "; ".join(left))
        return "\n".join(lines)


def start_request(
    client: RunnerClient,
    user: str,
    text: str,
    convid: str | None = None,
    *,
    behavior: str | None = None,
    split: bool = True,
) -> RequestRun:
    """Split ``text`` into its requests and send them in order on ``convid`` (or a new one).

    ``behavior`` overrides the account's search behaviour (the embedded demo's setting).
    ClientError when the text (or one of its parts) is not a valid request: then nothing
    has run.
    """
    check_query(text)
    parts = tuple(split_request(text)) if split else (text.strip(),)
    if not parts:
        raise ClientError("There is no request in that message; please say what you need.")
    for part in parts:
        check_query(part)
    return proceed(client, user, RequestRun(text.strip(), parts, convid), behavior=behavior)


def proceed(
    client: RunnerClient, user: str, run: RequestRun, *, behavior: str | None = None
) -> RequestRun:
    """Send the remaining parts until all ran, one pauses on an ask or needs a choice."""
    while run.remaining and run.pending_ask is None and run.choice is None and not run.stopped:
        index = run.next_part
        try:
            outcome = client.find(user, run.parts[index], run.convid)
        except ClientError as exc:
            return _unreachable(run, index, exc)
        run = replace(run, behavior=outcome.behavior)
        options = two_best_choice(outcome, behavior)
        if options is not None:
            return replace(run, choice=PendingChoice(index, outcome, options))
        agent = outcome.matches[0].agent_name if outcome.matches else outcome.previous_agent
        if agent is None:
            result = PartResult(index, run.parts[index], None, NO_MATCH)
            run = replace(run, results=(*run.results, result), next_part=index + 1)
            continue
        try:
            answer = client.run(user, agent, outcome.query, run.convid, outcome.matches)
        except ClientError as exc:
            return _unreachable(run, index, exc)
        run = _ran(run, index, answer)
    return run


def _unreachable(run: RequestRun, index: int, exc: ClientError) -> RequestRun:
    """The account could not be asked (server gone, store down): the rest waits, as reported."""
    result = PartResult(index, run.parts[index], None, str(exc))
    return replace(run, results=(*run.results, result), next_part=index + 1, stopped=str(exc))


def choose(
    client: RunnerClient,
    user: str,
    run: RequestRun,
    agent: str,
    *,
    behavior: str | None = None,
) -> RequestRun:
    """Run the part waiting on a choice with ``agent``, then the parts after it."""
    if run.choice is None:
        raise ClientError("There is no choice of agents waiting.")
    offered = {m.agent_name for m in run.choice.options}
    if agent not in offered:
        raise ClientError(f"'{agent}' was not offered; choose {' or '.join(sorted(offered))}.")
    outcome, index = run.choice.outcome, run.choice.index
    answer = client.run(user, agent, outcome.query, run.convid, outcome.matches)
    run = _ran(replace(run, choice=None), index, answer)
    return proceed(client, user, run, behavior=behavior)


def answer_pending(
    client: RunnerClient,
    user: str,
    run: RequestRun,
    answers: dict[str, Any],
    *,
    behavior: str | None = None,
) -> RequestRun:
    """Answer the part paused on an ask; once it is through, the parts after it run."""
    pending = run.pending_ask
    if pending is None:
        raise ClientError("There is no question waiting for an answer.")
    index = next(r.index for r in reversed(run.results) if r.answer is pending)
    answer = client.answer_ask(user, pending, answers)
    run = _ran(run, index, answer)
    if not answer.success:
        return run  # still paused on the same ask: the user may answer again
    return proceed(client, user, run, behavior=behavior)


def _ran(run: RequestRun, index: int, answer: AnswerView) -> RequestRun:
    """``run`` with part ``index`` answered by ``answer``."""
    result = PartResult(index, run.parts[index], answer)
    convid = answer.convid if answer.success and answer.convid else run.convid
    stopped = run.stopped
    if not answer.success and answer.result_code in STOPPING_CODES:
        stopped = answer.error or answer.result_code
    return replace(
        run,
        results=(*run.results, result),
        convid=convid,
        next_part=max(run.next_part, index + 1),
        stopped=stopped,
    )
