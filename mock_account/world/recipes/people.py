"""Employees and job candidates."""

from __future__ import annotations

import hashlib
import random
import re
from collections.abc import Mapping
from datetime import date, timedelta
from typing import Any

from dateutil.relativedelta import relativedelta

from mock_account.business.data import person_email
from mock_account.business.vocab import CANDIDATE_ROLES, COMPANY_DOMAIN, DEPARTMENTS

from ..recipe import CHANGES, Asked, Context, Recipe, Record, fits, keyword_choice
from ..roles import people_beside
from ..stated import Stated
from .travel import moved_days

_STAGE_WORDS: dict[str, tuple[str, ...]] = {
    "interview": ("interview",),
    "offer": ("offer",),
    "rejected": ("reject", "decline", "turn down", "not moving forward"),
    "hired": ("hired", "accepted the offer"),
    "screening": ("screen", "phone call"),
}


def _role(text: str) -> str | None:
    lowered = text.lower()
    best: tuple[int, str] | None = None
    for role in CANDIDATE_ROLES:
        words = [w for w in role.lower().split() if w not in ("senior",)]
        shared = sum(1 for w in words if w in lowered)
        if shared == len(words) and (best is None or len(words) > best[0]):
            best = (len(words), role)
    return best[1] if best else None


# Every job title the company uses, with its department ("" for roles not yet staffed).
_ROLE_DEPARTMENTS = {
    "Senior Software Engineer": "Engineering",
    "Data Analyst": "Finance",
    "Product Designer": "Marketing",
    "Buyer": "Procurement",
    "IT Support Technician": "IT",
}
_TITLES: dict[str, str] = {
    **{role: _ROLE_DEPARTMENTS.get(role, "") for role in CANDIDATE_ROLES},
    **{title: department for department, titles in DEPARTMENTS.items() for title in titles},
}


_SOMEONES_MANAGER = re.compile(r"\b(?:my|his|her|their|your)\s+(?:line\s+|new\s+)?manager\b")


def _title(text: str) -> tuple[str, str] | None:
    """The job title a request names, in full ("QA Engineer") or by its last word ("our new
    designer"), with its department. "My manager" is a person, not the job of an Office Manager."""
    lowered = _SOMEONES_MANAGER.sub(" ", f" {text.lower()} ")
    full = [t for t in _TITLES if all(w in lowered for w in t.lower().split())]
    if full:
        best = max(full, key=len)
        return best, _TITLES[best]
    for title in sorted(_TITLES, key=len):
        noun = title.split()[-1].lower()
        if f" {noun} " in lowered or f" {noun}," in lowered:
            return title, _TITLES[title]
    return None


# The last word of every job title, with the department of the titles it ends.
_TITLE_NOUNS: dict[str, str] = {}
for _name, _department in sorted(_TITLES.items(), key=lambda item: len(item[0])):
    _TITLE_NOUNS.setdefault(_name.split()[-1].lower(), _department)
_TITLES_FOLDED = frozenset(t.lower() for t in _TITLES)
# Nouns that end a job title the company does not have yet ("as a content writer"): its
# department is the one the request names, not a title of it picked at random.
for _noun in (
    "writer",
    "copywriter",
    "editor",
    "designer",
    "developer",
    "marketer",
    "strategist",
    "producer",
    "researcher",
    "planner",
    "translator",
    "advisor",
    "adviser",
    "intern",
    "lawyer",
    "paralegal",
    "consultant",
    "architect",
    "scientist",
):
    _TITLE_NOUNS.setdefault(_noun, "")
# A role said after "as": "hired Tomas as a data engineer", "joining as our new backend engineer".
_AS_ROLE = re.compile(
    r"\bas\s+(?:an?|our|the)\s+(?:new\s+)?((?:[a-z][\w/+-]*)(?:\s+[a-z][\w/+-]*){0,3})",
    re.IGNORECASE,
)


def _title_as(text: str) -> tuple[str, str] | None:
    """The job a request says someone is hired "as", as it says it ("as a senior data
    engineer": Senior Data Engineer, in Engineering), when the company has no title of those
    words; a title of ours is left to ``_title``, and words that end in none of our titles'
    nouns are no role ("as a favour")."""
    for found in _AS_ROLE.finditer(text):
        words = found.group(1).split()
        end = next((i for i, w in enumerate(words) if w.lower() in _TITLE_NOUNS), None)
        if end is None or end == 0:
            continue  # "as a Recruiter" is one of our titles, for ``_title``
        said = " ".join(w if w.isupper() else w.capitalize() for w in words[: end + 1])
        if said.lower() in _TITLES_FOLDED:
            return None
        return said, _TITLE_NOUNS[words[end].lower()]
    return None


# A question for whoever has a job: "Who is our payroll specialist?", "who's the head of IT".
_WHO_HAS = re.compile(r"\bwho(?:'s|\s+is|\s+are)\s+(?:our|the)\b", re.IGNORECASE)
# What a directory entry says of a person, asked of the user's own ("my manager", "who do
# I report to").
_OWN_ENTRY = re.compile(
    r"\bmy\s+(?:line\s+)?(?:manager|boss|supervisor|job\s+title|title|department|team lead"
    r"|office|location|work\s+email|email\s+address|employee\s+(?:id|number))\b"
    r"|\bwho\s+do\s+i\s+report\s+to\b",
    re.IGNORECASE,
)

_ROLE_SAID = re.compile(
    r"\b(?:the|a|an|our)\s+((?:[\w/+-]+\s){0,3}?[\w/+-]+)\s+(?:job|role|position|opening|vacancy)\b",
    re.IGNORECASE,
)


# A role named by hiring for it: "hire a senior data engineer", "recruit two backend
# developers" (a job title ends on one of these nouns; "hire Anthony Smith" names a person).
_HIRED_AS = re.compile(
    r"\b(?:hire|hiring|recruit|recruiting)\s+(?:a|an|another|one|two|three|a\s+second|more)?\s*"
    r"((?:[\w/+-]+\s){0,3}?(?:engineers?|developers?|analysts?|designers?|managers?|"
    r"executives?|specialists?|technicians?|recruiters?|consultants?|accountants?|lawyers?|"
    r"scientists?|architects?|administrators?|officers?|assistants?|coordinators?))\b",
    re.IGNORECASE,
)


def _role_said(text: str) -> str | None:
    """A role the company does not list, as the request names it ("the DevOps job", "hire
    a senior data engineer")."""
    found = _ROLE_SAID.search(text) or _HIRED_AS.search(text)
    if not found:
        return None
    words = found.group(1).split()
    return " ".join(w if any(c.isupper() for c in w) else w.capitalize() for w in words)


def _dates(ctx: Context, out: Record) -> None:
    """Dates of the request kept as they were said (a start, an end, a day)."""
    stated = ctx.stated
    first = stated.first_date
    if first is not None:
        out["start_date"] = first.isoformat()
        if stated.in_days:  # "three days off from the 14th": the 14th to the 16th
            end = stated.last_day
        else:
            end = stated.end or (first + timedelta(days=stated.nights) if stated.nights else None)
        if end is not None and end >= first:
            out["end_date"] = end.isoformat()


# A question of whom someone reports to.
_MANAGER_ASKED = re.compile(
    r"\b(?:manager|boss|supervisor)\b|\breports?\s+to\b",
    re.IGNORECASE,
)


class Employees(Recipe):
    source = "employees"
    noun = "employee"
    id_field = "id"
    id_prefix = "EMP"
    name_field = "name"
    name_kinds = ("employee",)
    unknown_names = "people"

    def outside(self, record: Record, kind: Mapping[str, Any]) -> str:
        # A colleague of another department than the agent's work needs ("ask Sofia to review
        # my pull request": she is in Sales).
        wanted = kind.get("department")
        if wanted and record.get("department") and not fits(record, {"department": wanted}):
            said = " or ".join(wanted) if isinstance(wanted, list | tuple) else wanted
            return (
                f"{record.get('name') or 'They'} works in {record['department']}, not "
                f"{said}; name someone in {said} and I'll go ahead."
            )
        return super().outside(record, kind)

    def asked(self, ctx: Context) -> Asked | None:
        found = super().asked(ctx)
        if found is not None:
            return found
        # "Who is our payroll specialist?" asks for whoever has that job, not for the colleague
        # this conversation looked up before.
        title = _title(ctx.stated.text)
        if title is not None and _WHO_HAS.search(ctx.stated.text):
            return Asked("title", title[0], f"with the title {title[0]}")
        return None

    def stated(self, ctx: Context) -> Record:
        stated = ctx.stated
        out: Record = {}
        # A new hire may be a candidate of ours ("onboard Maria Lopez"): that person; not
        # their buddy or mentor.
        beside = people_beside(stated)
        named = [
            p
            for p in stated.names_of("employee", "candidate") or stated.unknown_people()
            if p.shown not in beside
        ]
        if named:
            out["name"] = named[0].shown
        if stated.emails:
            out["email"] = stated.emails[0]
        place = stated.destination
        if place is not None:
            out["location"] = place.name
        department = keyword_choice(stated.text, {d: (f" {d.lower()} ",) for d in DEPARTMENTS})
        title = _title_as(stated.text) or _title(stated.text)
        if title is not None:
            out["title"] = title[0]
            department = department or title[1] or None
        if department:
            out["department"] = department
        _dates(ctx, out)
        return out

    def phrased(self, record: Record, today: date, stated: Stated) -> Record:
        # The notice a resignation handed in today gives: one month, to the same day.
        out = {
            "notice_from": today.isoformat(),
            "notice_last_day": (today + relativedelta(months=1)).isoformat(),
        }
        if record.get("manager") and _MANAGER_ASKED.search(stated.text):
            # "Who is my manager?" answered "Mario Hernandez is Paralegal in Legal, ..." of
            # the user, the manager last: the answer to the question comes first.
            whose = "Your" if stated.speaks_of_self else f"{record.get('name')}'s"
            out["answer_first"] = f"{whose} manager is {record['manager']}. "
        return out

    def changes_made(self, made: Record, ctx: Context) -> bool:
        # Leave, a sick day or a start date moved ("move it to January 4").
        return ctx.stated.moves and bool(made.get("start_date"))

    def change(self, base: Record, ctx: Context) -> Record:
        changes = super().change(base, ctx)
        if not self.changes_made(base, ctx):
            return changes
        # Days off moved: as long as they were, from the day said.
        # The last day off is one of them: a day alone ends where it starts.
        zero = timedelta(0)
        moved = moved_days(base, ctx, "start_date", "end_date", unknown_length=zero, one_day=zero)
        changes.update(moved)
        start = moved.get("start_date", base["start_date"])
        end = moved.get("end_date") or base.get("end_date") or start
        # The days an answer names are the days moved to, not the ones the request said.
        changes["when"] = f" from {start} to {end}" if end != start else f" on {start}"
        return {k: v for k, v in changes.items() if base.get(k) != v}

    def requester(self, ctx: Context) -> Record:
        """The user as an employee: the same record for the same user, every time, with the
        days of annual leave left this year."""
        seed = hashlib.sha256(f"employee/{ctx.user}".encode("utf-8", "surrogatepass")).digest()
        own = Context(ctx.stated, ctx.today, random.Random(seed), ctx.data, ctx.places, ctx.user)
        record: Record = {"name": ctx.user_name, "email": ctx.user}
        self.fill(record, own)
        # Drawn after the fields above, so adding it changed none of them.
        record["leave_left"] = own.rng.randint(6, 24)
        _dates(ctx, record)
        return record

    def of_the_user(self, ctx: Context) -> bool:
        return not ctx.stated.people and _OWN_ENTRY.search(ctx.stated.text) is not None

    def not_for(self, ctx: Context, given: Record) -> str | None:
        # A candidate of ours is onboarded once hired: not while still being interviewed.
        candidate = _candidate_named(ctx)
        return Candidates._not_hired(candidate) if candidate else None

    def fill(self, record: Record, ctx: Context) -> None:
        record.setdefault("id", self.new_id(ctx))
        if not record.get("name"):
            record["name"] = ctx.person_name()
        candidate = _candidate_named(ctx)
        if candidate and candidate.get("name") == record["name"] and not record.get("title"):
            # The job they were hired for ("Maria Lopez", hired as Product Designer).
            title = _title(str(candidate.get("role", "")))
            if title is not None:
                record["title"] = title[0]
                record.setdefault("department", title[1])
        if not record.get("department"):
            record["department"] = ctx.pick(DEPARTMENTS)
        if not record.get("title"):
            record["title"] = ctx.pick(DEPARTMENTS.get(record["department"], ("Specialist",)))
        if not record.get("manager"):
            heads = ctx.data.lookup("employees", where={"title": f"Head of {record['department']}"})
            record["manager"] = heads[0]["name"] if heads else ctx.person_name()
        if not record.get("location"):
            record["location"] = ctx.home_office()[0]
        if not record.get("email"):
            record["email"] = person_email(record["name"], COMPANY_DOMAIN)
        if record.get("start_date"):
            # A new hire's first day, kept under its own name: the start of a leave is not.
            record["joins_on"] = record["start_date"]


def _candidate_named(ctx: Context) -> Record | None:
    """The candidate of ours the request names, if it names one."""
    named = ctx.stated.names_of("candidate")
    found = ctx.data.lookup("candidates", where={"name": named[0].shown}) if named else []
    return found[0] if found else None


class Candidates(Recipe):
    source = "candidates"
    noun = "candidate"
    id_field = "id"
    id_prefix = "CAN"
    name_field = "name"
    name_kinds = ("candidate",)
    unknown_names = "people"

    def closed(self, saved: Record, source: str) -> str | None:
        # A new hire's laptop and accounts wait for an accepted offer.
        return self._not_hired(saved)

    def outside(self, record: Record, kind: Mapping[str, Any]) -> str:
        return self._not_hired(record) or super().outside(record, kind)

    def lacking(self, saved: Record, action: str) -> str | None:
        # A declined application is over: no interview, feedback or offer moves it on; its
        # status is still looked at.
        if action in CHANGES and saved.get("stage") == "rejected":
            return self._not_hired(saved)
        return None

    @staticmethod
    def _not_hired(record: Record) -> str | None:
        stage, name = record.get("stage"), record.get("name", "The candidate")
        role = f" for the {record['role']} role" if record.get("role") else ""
        if stage == "rejected":
            return f"{name}'s application{role} was declined; nothing is arranged for them."
        if stage in ("applied", "screening", "interview"):
            return (
                f"{name} is at the {stage} stage{role}, without an offer yet; nothing is "
                "arranged for a new hire before they accept one."
            )
        return None

    def preferred(self, given: Record, ctx: Context) -> Record:
        # A role the request names narrows the candidates to those for it (one nobody is in
        # the pipeline for is said to be none: ``differs``).
        role = self.stated(ctx).get("role")
        if not role or given.get("name"):
            return {}
        return {"role": role} if ctx.data.lookup("candidates", where={"role": role}) else {}

    def differs(self, record: Record, ctx: Context) -> str | None:
        # "Hire a senior data engineer" is not answered with the Senior Software Engineer
        # opening: a role nobody is in the pipeline for is said to be none.
        role = self.stated(ctx).get("role")
        if not role or not record.get("role") or ctx.stated.names_of("candidate"):
            return None
        if str(role).casefold() == str(record["role"]).casefold():
            return None
        roles = ", ".join(sorted({str(c["role"]) for c in ctx.data.records("candidates")}))
        return (
            f"No one in our hiring pipeline is for a {role} role, and it is no opening of "
            f"ours yet; the roles we are hiring for: {roles}."
        )

    def stated(self, ctx: Context) -> Record:
        stated = ctx.stated
        out: Record = {}
        # The applicant, not the panel that interviews them.
        beside = people_beside(stated)
        named = [
            p
            for p in stated.names_of("candidate") or stated.unknown_people()
            if p.shown not in beside
        ]
        if named:
            out["name"] = named[0].shown
        role = _role(stated.text) or _role_said(stated.text)
        if role:
            out["role"] = role
        if stated.emails:
            out["email"] = stated.emails[0]
        stage = keyword_choice(stated.text, _STAGE_WORDS)
        if stage:
            out["stage"] = stage
        _dates(ctx, out)
        if stated.amount is not None:
            out["salary"], out["currency"] = stated.amount.amount, stated.amount.currency
        return out

    def fill(self, record: Record, ctx: Context) -> None:
        record.setdefault("id", self.new_id(ctx))
        if not record.get("name"):
            record["name"] = ctx.person_name()
        if not record.get("role"):
            record["role"] = ctx.pick(CANDIDATE_ROLES)
        record.setdefault("stage", "applied")
        if not record.get("email"):
            record["email"] = person_email(record["name"], "mail.example")
