"""The conformance rules: stable ids, short names, default severities and documentation.

Ids never change meaning; a retired rule keeps its id unused. ``select_rules`` turns
``--select`` / ``--ignore`` lists (ids, id prefixes such as ``NS00``, or names) into the
set of enabled rule ids.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .findings import Severity


@dataclass(frozen=True)
class Rule:
    id: str
    name: str
    severity: Severity
    summary: str
    checks: str
    why: str
    example: str
    fix: str

    def doc(self) -> str:
        """The full documentation entry as plain text."""
        return "\n".join(
            [
                f"{self.id} {self.name} ({self.severity.value})",
                "",
                self.summary,
                "",
                "What it checks:",
                _indent(self.checks),
                "",
                "Why it matters:",
                _indent(self.why),
                "",
                "Example:",
                _indent(self.example),
                "",
                "Fix:",
                _indent(self.fix),
                "",
                f"Suppress one occurrence with a comment on its line or the line above:"
                f"  # agents-catalog: ignore[{self.id}]",
            ]
        )

    def markdown(self) -> str:
        return "\n".join(
            [
                f"**{self.id} {self.name}** ({self.severity.value}): {self.summary}",
                "",
                f"*What it checks.* {self.checks}",
                "",
                f"*Why it matters.* {self.why}",
                "",
                "*Example:*",
                "```yaml",
                self.example,
                "```",
                "*Fix:*",
                "```yaml",
                self.fix,
                "```",
                "",
                f"Suppress with `# agents-catalog: ignore[{self.id}]` on the line "
                "or the line above.",
            ]
        )


def _indent(text: str) -> str:
    return "\n".join("    " + line if line else "" for line in text.splitlines())


RULES: tuple[Rule, ...] = (
    Rule(
        "NS001",
        "unknown-prompt",
        Severity.ERROR,
        "A prompt name that is not in the naming scheme where it should be.",
        "Prompt names declared by `prompt` or used by `llm` / `data`. A conversation-scoped "
        "prompt must have a name from the scheme (`chat`); a near miss of a standard name "
        "(other case, separators, digits or version suffix, plural: `Chat`, `chat_v2`, "
        "`chats`) is a finding whatever its scope. Agent- and local-scoped prompts with "
        "names of their own (`notes`, `draft`) are fine.",
        "Conversation-scoped prompts are shared by name: a follow-up agent only sees the "
        "earlier exchange when both agents use exactly the same name. `Chat` starts a second, "
        "empty history and the hand-off silently loses the context.",
        '- prompt: {name: Chat, system: "You book trips.", user: "{sys.query}"}\n'
        "- llm: {prompt: Chat, reply: Booked.}",
        '- prompt: {name: chat, system: "You book trips.", user: "{sys.query}"}\n'
        "- llm: {prompt: chat, reply: Booked.}",
    ),
    Rule(
        "NS002",
        "prompt-scope",
        Severity.ERROR,
        "A standard prompt declared with a scope other than the scheme's.",
        "Every `prompt` command that declares a standard prompt (`chat`) must use the scope "
        "the scheme gives it (conversation, the default). An `agent` or `local` prompt named "
        "`chat` shadows the shared one.",
        "A `chat` with scope `local` or `agent` hides the conversation's shared history from "
        "this agent and hides this agent's exchange from the next one: the conversation no "
        "longer remembers what was said.",
        "- prompt: {name: chat, scope: local, system: You answer HR questions.}",
        "- prompt: {name: chat, scope: conversation, system: You answer HR questions.}\n"
        "# or, for private scratch work, a prompt of its own:\n"
        "- prompt: {name: notes, scope: local, system: You take notes.}",
    ),
    Rule(
        "NS003",
        "unknown-variable",
        Severity.ERROR,
        "A conversation variable that is not in the naming scheme.",
        "Every `conv.X` path, read or written: `var` names, `if` conditions (`exists`, "
        "`missing`, `left`), `for` `each`, and `{conv.X...}` placeholders in any template. "
        "X must be an agreed variable; the message suggests the closest one.",
        "Agents hand work to each other only through agreed names. An agent that writes "
        "`conv.trips` hands nothing to the agents that read `conv.trip`, and one that reads "
        "`conv.trips` never sees what they wrote.",
        '- llm: {prompt: chat, reply: "Your trip to {conv.trips.destination} is booked."}',
        '- llm: {prompt: chat, reply: "Your trip to {conv.trip.destination} is booked."}',
    ),
    Rule(
        "NS004",
        "unknown-variable-field",
        Severity.WARNING,
        "A field of an agreed variable that its schema does not define.",
        "Sub-paths of agreed variables (`conv.trip.destinaton`) and the keys of values "
        "written to them are checked against the properties of the variable's JSON Schema; "
        "a path into a field that holds a plain value (`conv.trip.destination.city`) is "
        "reported too.",
        "Other agents only know the fields the scheme defines: a misspelt field reads as "
        "empty and a field nobody agreed on is never used.",
        '- output: "Flying to {conv.trip.destinaton}"',
        '- output: "Flying to {conv.trip.destination}"',
    ),
    Rule(
        "NS005",
        "variable-schema",
        Severity.ERROR,
        "A value written to an agreed variable that does not match its JSON Schema.",
        "The value of every `var` command writing `conv.X` (or a sub-path `conv.X.field`, "
        "against that field's schema): required fields, types, enums, patterns and formats. "
        "A string that is exactly one placeholder (`{record.total}`) has a type known only "
        "at run time, so only its presence is checked; literal values are checked fully.",
        "Readers rely on the agreed shape: a missing `end_date` or a status outside the enum "
        "breaks every agent that reads the variable later in the conversation.",
        "- var: {name: conv.order, value: {id: ORD-000001, status: shipping}}",
        "- var: {name: conv.order, value: {id: ORD-000001, status: shipped}}",
    ),
    Rule(
        "NS006",
        "read-never-written",
        Severity.WARNING,
        "An agreed variable read that no agent of the account writes.",
        "For each agreed variable an agent reads, at least one agent of the account "
        "(`--account DIR`, by default the generated account, plus the files checked) must "
        "write it. Reported once per file and variable.",
        "A read that nothing can satisfy is dead logic: the branch that uses it never runs "
        "and the hand-off the author expected never happens.",
        "- if: {when: {exists: conv.campaign}, then: [...]}   # and no agent writes it",
        "Add a `var: {name: conv.campaign, ...}` to the agent that finds the campaign, or "
        "read a variable that some agent writes.",
    ),
    Rule(
        "NS007",
        "written-never-read",
        Severity.INFO,
        "An agreed variable written that no agent of the account reads.",
        "For each agreed variable an agent writes, at least one agent of the account (or of "
        "the files checked) reads it. Reported once per file and variable.",
        "Writing costs state size on every saved run; a value nobody reads is a hand-off "
        "that was planned but not built on the reading side.",
        "- var: {name: conv.vendor, value: {id: VEN-0001, name: Acme}}   # no reader",
        "Make the agent that needs the vendor read `conv.vendor`, or drop the write.",
    ),
    Rule(
        "NS008",
        "agent-name",
        Severity.ERROR,
        "The agent name breaks the naming rule.",
        "`name` is 2 to 32 characters, starts with a letter, uses letters, digits and `_`, "
        "and does not end with `_` (`^[A-Za-z][A-Za-z0-9_]*[A-Za-z0-9]$`).",
        "The name is the agent's id in every API call (`execAgent`), in saved runs and in "
        "the hand-off graph; the server refuses other names.",
        "name: book-business-trip",
        "name: BookBusinessTrip",
    ),
    Rule(
        "NS009",
        "agent-title",
        Severity.ERROR,
        "The agent title is empty or too long.",
        "`title` is text of 1 to 80 characters.",
        "The title is what search results and the demo show; longer titles are cut off in "
        "result lists and the server refuses them.",
        "title: Book a business trip including flights, hotels, rental cars, visas and "
        "everything else you need",
        "title: Book a business trip",
    ),
    Rule(
        "NS010",
        "agent-tag",
        Severity.ERROR,
        "The agent tag (its department) breaks the tag rule.",
        "`tag` is 1 to 16 characters of lowercase letters and digits in words joined by "
        "single `_` (`^[a-z0-9]+(_[a-z0-9]+)*$`).",
        "Tags filter searches (`/api/exec/search` `tag`) and group agents by department; "
        "a tag written differently puts the agent in a department of its own.",
        "tag: Customer-Support",
        "tag: support",
    ),
    Rule(
        "NS011",
        "invalid-agent-file",
        Severity.ERROR,
        "The file is not a valid agent: bad YAML, unreadable, or against the agent format.",
        "The file parses as YAML, is a mapping, and follows the published agent JSON Schema "
        "(required fields, known commands and fields, types). Each problem is reported at its "
        "line.",
        "The server refuses to load an invalid agent, so the whole agent is missing from the "
        "account.",
        "main:\n  - llm: {prompt: chat}       # missing required field 'reply'",
        'main:\n  - llm: {prompt: chat, reply: "Done."}',
    ),
    Rule(
        "NS012",
        "duplicate-agent-name",
        Severity.ERROR,
        "Two of the files checked define agents with the same name.",
        "Agent names are unique across the files checked.",
        "Calls name agents by `name`; with two agents of one name, which one runs is "
        "undefined and saved runs point at the wrong agent.",
        "# a.yaml\nname: BookTrip\n# b.yaml\nname: BookTrip",
        "# a.yaml\nname: BookTrip\n# b.yaml\nname: RebookTrip",
    ),
    Rule(
        "NS021",
        "workflow-undeclared-stage",
        Severity.ERROR,
        "A workflow transition goes to a stage the workflow does not declare.",
        "Every `next` and `transitions[].to` of a stage of the agent's `workflow` names one of "
        "its `stages`.",
        "The server refuses to load a workflow with a way out to nowhere: users would be "
        "stuck at that stage with every goal met.",
        "workflow:\n  name: onboarding\n  stages:\n  - {name: paperwork, next: equipmnet}\n"
        "  - {name: equipment}",
        "workflow:\n  name: onboarding\n  stages:\n  - {name: paperwork, next: equipment}\n"
        "  - {name: equipment}",
    ),
    Rule(
        "NS022",
        "workflow-uncollected-value",
        Severity.ERROR,
        "A workflow goal, condition or `workflow` command names a value no stage collects.",
        "Each `check.value` of a goal, each `when.value` of a transition, and each key of a "
        "`workflow` command's `collect` (for the agent's own workflow) is a value some stage "
        "of the workflow collects (`- collect: name`).",
        "A goal on a value nobody collects can never be met, so users can never move past "
        "its stage; a value collected under another name is refused at run time.",
        "goals:\n- {collect: signed, type: bool}\n"
        "- {name: contract_ok, check: {value: contract_signed, op: isTrue}}",
        "goals:\n- {collect: signed, type: bool}\n"
        "- {name: contract_ok, check: {value: signed, op: isTrue}}",
    ),
    Rule(
        "NS023",
        "workflow-unreachable-stage",
        Severity.WARNING,
        "A workflow stage that no other stage leads to.",
        "Every stage but the first is the target of some `next` or `transitions[].to`.",
        "Nobody ever reaches it; its goals are dead weight, or a transition is missing.",
        "stages:\n- {name: paperwork}\n- {name: equipment}",
        "stages:\n- {name: paperwork, next: equipment}\n- {name: equipment}",
    ),
    Rule(
        "NS024",
        "workflow-not-declared",
        Severity.ERROR,
        "A `workflow` command in an agent that declares no workflow and names none.",
        "A `workflow` command either names a workflow (`workflow: onboarding`) or the agent "
        "declares one under `workflow`.",
        "The command fails the run with errorInAgent every time it is reached.",
        "main:\n  - workflow: {collect: {laptop: mac}}",
        "main:\n  - workflow: {workflow: new_hire_onboarding, collect: {laptop: mac}}",
    ),
    Rule(
        "NS025",
        "action-payload-incomplete",
        Severity.ERROR,
        "An action's payload lacks a field its kind needs.",
        "`email` needs to, subject, body; `im` needs to, text; `connector` needs connector, "
        "operation.",
        "The run fails with errorInAgent when it reaches the action: nothing is proposed.",
        "- action: {kind: email, payload: {to: ops@example.com, body: Down}}",
        "- action: {kind: email, payload: {to: ops@example.com, subject: Outage, body: Down}}",
    ),
    Rule(
        "NS026",
        "message-without-approval",
        Severity.WARNING,
        "An email or IM action sent without the user's approval.",
        "`action` commands of kind `email` or `im` with `approval: false`.",
        "A message leaves the account on the agent's word alone; once sent it cannot be "
        "taken back. Approval makes the user see it first (it still runs at most once).",
        "- action: {kind: email, approval: false, payload: {...}}",
        "- action: {kind: email, payload: {...}}   # approval defaults to true",
    ),
    Rule(
        "NS027",
        "standard-prompt-unused",
        Severity.WARNING,
        "An agent that never talks through the standard prompt.",
        "Some `prompt` command declares a standard prompt (`chat`) with its scope, or an "
        "`llm` / `data` command uses it. An agent whose only prompts are names of its own "
        "(an agent-scoped `summary`) is a finding.",
        "Conversation-scoped prompts are how agents hear each other: an agent with only its "
        "own prompt starts from nothing the earlier agents said, and the next agent cannot "
        "see its exchange with the user.",
        "- prompt: {name: summary, scope: agent, user: '{sys.query}'}\n"
        "- llm: {prompt: summary, reply: Done.}",
        "- prompt: {name: chat, scope: conversation, user: '{sys.query}'}\n"
        "- llm: {prompt: chat, reply: Done.}",
    ),
    Rule(
        "NS028",
        "agreed-variable-unused",
        Severity.WARNING,
        "An agent about something the scheme names that reads and writes no agreed variable.",
        "The last word of the agent's name is the thing it acts on (`BookBusinessTrip` is "
        "about a trip, `ApproveTeamExpenses` about an expense). When that word is an agreed "
        "variable (singular or plural), the agent reads or writes some agreed `conv.X`. A "
        "word earlier in the name qualifies the thing or is the verb (`DraftCustomerReply` "
        "is about a reply, `OrderOfficeSupplies` about supplies), so it does not count; "
        "titles and examples are not used. A near miss of an agreed name (`conv.trips`) is "
        "left to NS003.",
        "Agents build on each other only through agreed variables. A trip agent that keeps "
        "the trip in locals or `agent.trip` ignores the trip an earlier agent found, and "
        "the next agent (the hotel, the expense claim) cannot find the one it booked.",
        "name: BookBusinessTrip\nmain:\n"
        "  - var: {name: agent.trip, value: {destination: '{record.destination}'}}",
        "name: BookBusinessTrip\nmain:\n"
        "  - var: {name: conv.trip, value: {destination: '{record.destination}', ...}}",
    ),
)

BY_ID: dict[str, Rule] = {rule.id: rule for rule in RULES}
BY_NAME: dict[str, Rule] = {rule.name: rule for rule in RULES}


def find_rule(key: str) -> Rule | None:
    """A rule by id (any case) or by name."""
    return BY_ID.get(key.strip().upper()) or BY_NAME.get(key.strip().lower())


def _matching(token: str) -> set[str]:
    token = token.strip()
    rule = find_rule(token)
    if rule:
        return {rule.id}
    return {r.id for r in RULES if r.id.startswith(token.upper())} if token else set()


def parse_rule_list(text: str | Iterable[str] | None) -> list[str]:
    """Split ``"NS001,NS003 NS005"`` (or a list of such strings) into tokens."""
    if text is None:
        return []
    parts = [text] if isinstance(text, str) else list(text)
    return [t for part in parts for t in part.replace(",", " ").split() if t]


def select_rules(
    select: str | Iterable[str] | None = None, ignore: str | Iterable[str] | None = None
) -> frozenset[str]:
    """Enabled rule ids; ValueError naming any token that matches no rule."""
    chosen: set[str] = set()
    selected = parse_rule_list(select)
    for token in selected:
        found = _matching(token)
        if not found:
            raise ValueError(f"unknown rule '{token}' (see `agents-catalog rules`)")
        chosen |= found
    if not selected:
        chosen = set(BY_ID)
    for token in parse_rule_list(ignore):
        found = _matching(token)
        if not found:
            raise ValueError(f"unknown rule '{token}' (see `agents-catalog rules`)")
        chosen -= found
    return frozenset(chosen)
