"""Score prospect conversations: right agent, every typed fact kept, follow-ups on the saved record.

A prospect file (YAML) holds conversations of one to a few turns, each turn what the prospect
types, the agents that may rightly answer it, the facts the answer must carry, and optionally
values that must not be said and what the prospect types into a form::

    today: 2026-12-07
    conversations:
    - name: seoul-flight
      turns:
      - say: "I have to be in Seoul from 14 to 17 December, book me a flight."
        agents: [BookBusinessFlight]
        facts: [Seoul, "2026-12-14", ["10:00", "10am"]]   # a list: any one of them
        absent: ["46000"]
        answers: {cabin: economy}

Each turn is searched like a new request and the best match runs (with no match, the agent
that answered last answers again). A form is answered from ``answers``, else the field's
default, else its first option, else a placeholder. A turn is *coherent* when the agent is one
of ``agents``, every fact is found (case-insensitive, thousands separators, trailing ``.0`` and
white space normalised) in the answer or in the saved ``conv.*`` values, and no ``absent``
value is in the answer.

The target is anything that searches, runs and shows a conversation's variables: the account
in process (:class:`AccountTarget`) or a server over HTTP (``mock_account.api`` clients).
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any, Protocol

import yaml

#: What a free-text form field gets when the file says nothing and the field has no default.
PLACEHOLDER = "as discussed"
#: How many forms one turn may answer before it is scored as stuck.
MAX_FORMS = 4


class ProspectFileError(ValueError):
    """A prospect file that cannot be read or is not in the format."""


# --- the file -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Turn:
    say: str
    agents: tuple[str, ...]
    facts: tuple[tuple[str, ...], ...]
    absent: tuple[str, ...] = ()
    answers: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Conversation:
    name: str
    turns: tuple[Turn, ...]


@dataclass(frozen=True)
class ProspectSet:
    today: date | None
    conversations: tuple[Conversation, ...]


def _strings(value: Any, where: str) -> tuple[str, ...]:
    if value is None:
        return ()
    if not isinstance(value, list):
        raise ProspectFileError(f"{where}: expected a list")
    out = []
    for item in value:
        if isinstance(item, bool) or not isinstance(item, str | int | float):
            raise ProspectFileError(f"{where}: {item!r} is not a word or a number")
        out.append(str(item))
    return tuple(out)


def _facts(value: Any, where: str) -> tuple[tuple[str, ...], ...]:
    if value is None:
        return ()
    if not isinstance(value, list):
        raise ProspectFileError(f"{where}: expected a list")
    facts = []
    for i, item in enumerate(value):
        alternatives = _strings(item, f"{where}[{i}]") if isinstance(item, list) else None
        if alternatives is None:
            alternatives = _strings([item], f"{where}[{i}]")
        if not alternatives:
            raise ProspectFileError(f"{where}[{i}]: an empty list of alternatives")
        facts.append(alternatives)
    return tuple(facts)


def _turn(raw: Any, where: str) -> Turn:
    if not isinstance(raw, dict):
        raise ProspectFileError(f"{where}: expected a mapping with 'say' and 'agents'")
    unknown = set(raw) - {"say", "agents", "facts", "absent", "answers"}
    if unknown:
        raise ProspectFileError(f"{where}: unknown keys {sorted(unknown)}")
    say = raw.get("say")
    if not isinstance(say, str) or not say.strip():
        raise ProspectFileError(f"{where}.say: expected the text the prospect types")
    agents = _strings(raw.get("agents"), f"{where}.agents")
    if not agents:
        raise ProspectFileError(f"{where}.agents: name at least one agent")
    answers = raw.get("answers") or {}
    if not isinstance(answers, dict):
        raise ProspectFileError(f"{where}.answers: expected a mapping of field name to value")
    return Turn(
        say=say,
        agents=agents,
        facts=_facts(raw.get("facts"), f"{where}.facts"),
        absent=_strings(raw.get("absent"), f"{where}.absent"),
        answers=dict(answers),
    )


def parse_prospect_set(raw: Any, source: str = "prospect file") -> ProspectSet:
    """Check a loaded prospect file and return it typed (raises ProspectFileError)."""
    if not isinstance(raw, dict) or not isinstance(raw.get("conversations"), list):
        raise ProspectFileError(f"{source}: expected a mapping with a 'conversations' list")
    today = raw.get("today")
    if isinstance(today, str):
        try:
            today = date.fromisoformat(today)
        except ValueError:
            raise ProspectFileError(f"{source}: today must be a date like 2026-12-07") from None
    if today is not None and not isinstance(today, date):
        raise ProspectFileError(f"{source}: today must be a date like 2026-12-07")
    conversations = []
    for i, conv in enumerate(raw["conversations"]):
        where = f"conversations[{i}]"
        if not isinstance(conv, dict) or not isinstance(conv.get("turns"), list):
            raise ProspectFileError(f"{source}: {where}: expected 'name' and a list of 'turns'")
        name = str(conv.get("name") or where)
        turns = tuple(_turn(t, f"{name}.turns[{j}]") for j, t in enumerate(conv["turns"]))
        if not turns:
            raise ProspectFileError(f"{source}: {name}: a conversation needs a turn")
        conversations.append(Conversation(name, turns))
    return ProspectSet(today, tuple(conversations))


def load_prospect_set(path: Path) -> ProspectSet:
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ProspectFileError(f"cannot read {path}: {exc.strerror or exc}") from exc
    except yaml.YAMLError as exc:
        raise ProspectFileError(f"{path} is not valid YAML: {exc}") from exc
    return parse_prospect_set(raw, str(path))


# --- scoring --------------------------------------------------------------------------------

_THOUSANDS = re.compile(r"(?<=\d)[,\u202f\u00a0'](?=\d{3}\b)")
_TRAILING_ZERO = re.compile(r"(?<=\d)\.0+\b")
_SPACE = re.compile(r"\s+")


def normalised(text: str) -> str:
    """Text as facts are compared: lower case, no thousands separators, no trailing ``.0``."""
    text = _THOUSANDS.sub("", text.lower())
    text = _TRAILING_ZERO.sub("", text)
    return _SPACE.sub(" ", text).strip()


def _values(value: Any) -> Iterable[str]:
    if isinstance(value, dict):
        for item in value.values():
            yield from _values(item)
    elif isinstance(value, list):
        for item in value:
            yield from _values(item)
    elif value is not None:
        yield str(value)


def form_answers(ask_input: Mapping[str, Any], given: Mapping[str, Any]) -> dict[str, Any]:
    """What the prospect types into a form: what the file says, else the default, else the
    first option, else a placeholder."""
    answers: dict[str, Any] = {}
    for spec in ask_input.get("inputs") or []:
        name = spec["name"]
        default = spec.get("default")
        options = spec.get("options") or []
        if name in given:
            answers[name] = given[name]
        elif default not in (None, "", []):
            answers[name] = default
        elif spec.get("type") == "chooseMany":
            answers[name] = options[:1] or [PLACEHOLDER]
        elif options:
            answers[name] = options[0]
        else:
            answers[name] = PLACEHOLDER
    return answers


@dataclass(frozen=True)
class Reply:
    """One run's result as the evaluation needs it."""

    success: bool
    result_code: str
    convid: str | None
    text: str
    ask_input: Mapping[str, Any] | None = None
    error: str | None = None


class Target(Protocol):
    """What the evaluation talks to: the account in process, or a server over HTTP."""

    def search(self, query: str) -> list[str]:
        """Agent names best first."""
        ...

    def run(self, agent: str, inputs: Mapping[str, Any], convid: str | None) -> Reply: ...

    def conv(self, convid: str) -> Mapping[str, Any]:
        """The conversation's ``conv`` variables."""
        ...

    def departments(self) -> Mapping[str, str]:
        """Agent name -> department tag."""
        ...


@dataclass
class TurnVerdict:
    conversation: str
    index: int
    say: str
    agent: str | None
    expected: tuple[str, ...]
    answer: str
    missing: list[str]
    said_absent: list[str]
    error: str | None = None

    @property
    def right_agent(self) -> bool:
        return self.agent in self.expected

    @property
    def coherent(self) -> bool:
        return self.error is None and self.right_agent and not self.missing and not self.said_absent

    def why(self) -> str:
        reasons = []
        if self.error:
            reasons.append(self.error)
        if not self.right_agent:
            reasons.append(f"agent {self.agent or 'none'}, expected {' or '.join(self.expected)}")
        if self.missing:
            reasons.append("missing " + ", ".join(self.missing))
        if self.said_absent:
            reasons.append("said " + ", ".join(self.said_absent))
        return "; ".join(reasons) or "coherent"

    def as_json(self) -> dict[str, Any]:
        return {
            "conversation": self.conversation,
            "turn": self.index + 1,
            "say": self.say,
            "agent": self.agent,
            "expected": list(self.expected),
            "coherent": self.coherent,
            "why": self.why(),
            "answer": self.answer,
        }


def _score(turn: Turn, answer: str, conv: Mapping[str, Any]) -> tuple[list[str], list[str]]:
    said = normalised(answer)
    kept = said + "\n" + "\n".join(normalised(v) for v in _values(conv))
    missing = [
        " / ".join(alternatives)
        for alternatives in turn.facts
        if not any(normalised(fact) in kept for fact in alternatives)
    ]
    said_absent = [value for value in turn.absent if normalised(value) in said]
    return missing, said_absent


def run_conversation(target: Target, conversation: Conversation) -> list[TurnVerdict]:
    """Play one conversation on the target; a verdict per turn."""
    verdicts: list[TurnVerdict] = []
    convid: str | None = None
    previous: str | None = None
    for i, turn in enumerate(conversation.turns):
        names = target.search(turn.say)
        agent = names[0] if names else previous
        verdict = TurnVerdict(conversation.name, i, turn.say, agent, turn.agents, "", [], [])
        verdicts.append(verdict)
        if agent is None:
            verdict.error = "no agent matched"
            verdict.missing, verdict.said_absent = _score(turn, "", {})
            continue
        reply = target.run(agent, {"query": turn.say}, convid)
        forms = 0
        while reply.success and reply.result_code == "ask" and reply.ask_input is not None:
            forms += 1
            if forms > MAX_FORMS:
                break
            reply = target.run(agent, form_answers(reply.ask_input, turn.answers), reply.convid)
        if not reply.success:
            verdict.error = f"{reply.result_code}: {reply.error or 'the run failed'}"
        elif reply.result_code == "ask":
            verdict.error = f"still asking after {MAX_FORMS} forms"
        if reply.convid:
            convid = reply.convid
        if reply.success:
            previous = agent
        verdict.answer = reply.text
        conv = target.conv(convid) if convid else {}
        verdict.missing, verdict.said_absent = _score(turn, reply.text, conv)
    return verdicts


@dataclass
class Report:
    verdicts: list[TurnVerdict]
    departments: dict[str, str]  # conversation name -> department

    def _rate(self, verdicts: Sequence[TurnVerdict]) -> tuple[int, int]:
        return sum(v.coherent for v in verdicts), len(verdicts)

    @property
    def total(self) -> tuple[int, int]:
        return self._rate(self.verdicts)

    @property
    def first_turns(self) -> tuple[int, int]:
        return self._rate([v for v in self.verdicts if v.index == 0])

    @property
    def followups(self) -> tuple[int, int]:
        return self._rate([v for v in self.verdicts if v.index > 0])

    def by_department(self) -> dict[str, tuple[int, int]]:
        groups: dict[str, list[TurnVerdict]] = {}
        for verdict in self.verdicts:
            groups.setdefault(self.departments[verdict.conversation], []).append(verdict)
        return {name: self._rate(group) for name, group in sorted(groups.items())}

    def causes(self) -> Counter[str]:
        counted: Counter[str] = Counter()
        for v in self.verdicts:
            if v.error:
                counted["error"] += 1
            if not v.right_agent:
                counted["wrong agent"] += 1
            if v.right_agent and v.missing:
                counted["fact missing (right agent)"] += 1
            if v.said_absent:
                counted["said a wrong value"] += 1
        return counted

    def as_json(self) -> dict[str, Any]:
        def rate(pair: tuple[int, int]) -> dict[str, Any]:
            return {"coherent": pair[0], "turns": pair[1], "rate": _ratio(pair)}

        return {
            "total": rate(self.total),
            "first_turns": rate(self.first_turns),
            "followups": rate(self.followups),
            "departments": {name: rate(pair) for name, pair in self.by_department().items()},
            "turns": [v.as_json() for v in self.verdicts],
        }

    def lines(self, verbose: bool = False) -> list[str]:
        out = []
        for v in self.verdicts:
            if verbose or not v.coherent:
                mark = "ok  " if v.coherent else "FAIL"
                out.append(f"{mark} {v.conversation} #{v.index + 1} [{v.agent}] {v.why()}")
                if verbose and not v.coherent:
                    out.append(f"       say:    {v.say}")
                    out.append(f"       answer: {v.answer[:400]}")
        out.append("")
        out.append(f"{'department':<14} {'coherent':>9} {'rate':>7}")
        for name, pair in self.by_department().items():
            out.append(f"{name:<14} {pair[0]:>4} / {pair[1]:<3} {_percent(pair):>7}")
        out.append(
            f"{'first turns':<14} {self.first_turns[0]:>4} / {self.first_turns[1]:<3} "
            f"{_percent(self.first_turns):>7}"
        )
        out.append(
            f"{'follow-ups':<14} {self.followups[0]:>4} / {self.followups[1]:<3} "
            f"{_percent(self.followups):>7}"
        )
        out.append(
            f"{'total':<14} {self.total[0]:>4} / {self.total[1]:<3} {_percent(self.total):>7}"
        )
        causes = ", ".join(f"{name} {n}" for name, n in self.causes().most_common())
        if causes:
            out.append(f"failures by cause: {causes}")
        return out


def _ratio(pair: tuple[int, int]) -> float:
    return pair[0] / pair[1] if pair[1] else 0.0


def _percent(pair: tuple[int, int]) -> str:
    return f"{100 * _ratio(pair):.1f} %"


def evaluate(target: Target, prospects: ProspectSet) -> Report:
    """Play every conversation of the set on the target."""
    tags = target.departments()
    verdicts: list[TurnVerdict] = []
    departments: dict[str, str] = {}
    for conversation in prospects.conversations:
        departments[conversation.name] = tags.get(conversation.turns[0].agents[0], "other")
        verdicts.extend(run_conversation(target, conversation))
    return Report(verdicts, departments)


# --- the account in process -----------------------------------------------------------------


def answer_text(parts: Iterable[Mapping[str, Any]] | None) -> str:
    return "\n".join(str(p.get("text") or "") for p in parts or [])


class AccountTarget:
    """The account in this process, as one user."""

    def __init__(self, account: Any, user: Any) -> None:
        self.account = account
        self.user = user

    def search(self, query: str) -> list[str]:
        return [hit.agent_name for hit in self.account.search(query)]

    def run(self, agent: str, inputs: Mapping[str, Any], convid: str | None) -> Reply:
        result = self.account.exec_agent(self.user, agent, dict(inputs), convid)
        return Reply(
            success=result.success,
            result_code=result.result_code,
            convid=result.convid,
            text=answer_text(result.parts),
            ask_input=result.ask_input,
            error=result.error,
        )

    def conv(self, convid: str) -> Mapping[str, Any]:
        return self.account.restore(self.user, convid).state.get("conv") or {}

    def departments(self) -> Mapping[str, str]:
        return {name: agent.tag for name, agent in self.account.agents.items()}


def dumps(report: Report) -> str:
    return json.dumps(report.as_json(), indent=2, ensure_ascii=False)


# --- a server over HTTP ---------------------------------------------------------------------


class HttpTarget:
    """A server that speaks the Search2o API (this one, or a real one), as the token's user.

    The saved ``conv`` values come from the harness's state view; a server without it (a real
    Search2o agent server) is scored on its answers alone.
    """

    def __init__(self, base_url: str, token: str, *, timeout: float = 30.0) -> None:
        import httpx

        self._client = httpx.Client(
            base_url=base_url.rstrip("/"),
            headers={"Authorization": f"Bearer {token}"},
            timeout=timeout,
        )
        self._has_state_view = True

    def close(self) -> None:
        self._client.close()

    def _post(self, path: str, body: Mapping[str, Any]) -> dict[str, Any]:
        import httpx

        try:
            response = self._client.post(path, json=dict(body))
        except httpx.HTTPError as exc:
            raise ProspectTargetError(f"{path}: {exc}") from exc
        try:
            payload = response.json()
        except ValueError:
            payload = None
        if response.status_code == 401:
            raise ProspectTargetError("the server refused the token (401)")
        if not isinstance(payload, dict):
            raise ProspectTargetError(f"{path}: HTTP {response.status_code}, not a JSON object")
        payload["_status"] = response.status_code
        return payload

    def search(self, query: str) -> list[str]:
        payload = self._post("/api/exec/search", {"query": query})
        return [hit["agentName"] for hit in payload.get("searchResults") or []]

    def run(self, agent: str, inputs: Mapping[str, Any], convid: str | None) -> Reply:
        body: dict[str, Any] = {"agentName": agent, "inputs": dict(inputs)}
        if convid:
            body["convid"] = convid
        payload = self._post("/api/exec/execAgent", body)
        error = payload.get("error")
        message = error.get("message") if isinstance(error, dict) else error
        output = payload.get("output") or {}
        return Reply(
            success=bool(payload.get("success")),
            result_code=str(payload.get("resultCode") or "callFailed"),
            convid=payload.get("convid") or convid,
            text=answer_text(output.get("parts")),
            ask_input=payload.get("askInput"),
            error=message,
        )

    def conv(self, convid: str) -> Mapping[str, Any]:
        if not self._has_state_view:
            return {}
        payload = self._post("/api/harness/getConversationState", {"convid": convid})
        if payload["_status"] == 404 or not payload.get("success"):
            self._has_state_view = payload["_status"] != 404
            return {}
        return (payload.get("state") or {}).get("conv") or {}

    def departments(self) -> Mapping[str, str]:
        # The search response carries no tag: departments come from the local agent files.
        from agents_catalog.loader import default_account_dir, load_account

        return {agent.name: agent.tag for agent in load_account(default_account_dir())}


class ProspectTargetError(RuntimeError):
    """The target could not be reached or answered out of the API."""
