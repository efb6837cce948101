"""Support tickets, production incidents and IT assets."""

from __future__ import annotations

import hashlib
import random
import re
from datetime import date, datetime, timedelta

from mock_account.business.vocab import ASSET_MODELS, INCIDENT_SYMPTOMS, SERVICES, TICKET_SUBJECTS
from mock_account.understanding.lexicon import HIRING_VERBS
from mock_account.understanding.numbers import NUMBER, parse_number
from mock_account.understanding.quantities import singular

from ..changes import CHANGES_IT
from ..recipe import (
    CHANGES,
    WHO_FOR,
    Asked,
    Context,
    Recipe,
    Record,
    first_sentence,
    keyword_choice,
)
from ..stated import Stated
from .sales import customer_asked

_PRIORITY_WORDS: dict[str, tuple[str, ...]] = {
    "urgent": ("urgent", "asap", "right now", "immediately", "critical"),
    "high": ("high priority", "important", "quickly", "soon as"),
    "low": ("low priority", "no rush", "whenever", "not urgent"),
}
_SEVERITY_BY_WORD: dict[str, tuple[str, ...]] = {
    "sev1": ("down for everyone", "complete outage", "totally down", "all customers"),
    "sev2": ("major", "many customers", "outage"),
    "sev3": ("degraded", "slow", "intermittent", "some customers"),
}
# Words of a request that name a service, for services whose name users shorten.
_SERVICE_WORDS: dict[str, tuple[str, ...]] = {
    service: (service.lower(),) for service in SERVICES
} | {
    "Checkout API": ("checkout",),
    "Payments gateway": ("payment",),
    "Customer portal": ("portal",),
    "Single sign-on": ("sso", "sign-on", "login service"),
    "Email delivery": ("email delivery", "emails are not", "mail delivery"),
    "Search service": ("search",),
    "Mobile app backend": ("mobile app", "app backend"),
    "Data warehouse": ("warehouse", "reporting"),
    "VPN gateway": ("vpn",),
    "Billing service": ("billing",),
    "Order pipeline": ("order pipeline", "orders are not", "order processing"),
    "Notification service": ("notification", "push"),
}
_ASSET_WORDS: dict[str, tuple[str, ...]] = {kind: (kind,) for kind in ASSET_MODELS} | {
    "laptop": ("laptop", "notebook", "macbook", "thinkpad"),
    "phone": ("phone", "mobile", "iphone", "pixel"),
    "monitor": ("monitor", "screen", "display"),
    "docking station": ("dock",),
}


# A service the request names that the catalogue does not have ("our payroll service is
# down", "our payroll run for December failed"): its own word and what it is, as written.
_NAMED_SERVICE = re.compile(
    r"\b(?!(?:our|the|my|a|an|this|that|whole|entire|nightly|daily)\b)([A-Za-z][\w-]*) "
    r"(service|system|api|app|portal|gateway|platform|server|database|website|site|run|job|"
    r"batch|sync|export|import|integration|pipeline|queue|cluster|feed)\b",
    re.IGNORECASE,
)


# What an incident is about: something down, failing or slow.
_BROKEN = re.compile(
    r"\b(?:down|outage|errors?|fail(?:s|ed|ing|ure)?|broken|not\s+working|slow|latency|"
    r"time-?outs?|timing\s+out|crash(?:es|ed|ing)?|unavailable|degraded|5\d\d|5\d\ds|"
    r"incident|sev\s?[1-4]|p[1-4])\b",
    re.IGNORECASE,
)
_ESCALATED = re.compile(
    r"\bescalat|\b(?:second|third|2nd|3rd)[\s-]line\b|\bspecialist\b", re.IGNORECASE
)
# How an incident stands, as people say it.
_INCIDENT_STATUS_WORDS: dict[str, tuple[str, ...]] = {
    "investigating": ("investigating", "looking into"),
    "identified": ("identified", "found the cause", "root cause is"),
    "monitoring": ("monitoring", "fix is deployed", "fix deployed", "fix is out"),
    "resolved": (
        "resolved",
        "operational again",
        "back up",
        " is fixed",
        "fixed now",
        "all clear",
        "all-clear",
        "close the incident",
        "outage is over",
    ),
}
# What a ticket is opened for: something wrong.
_PROBLEM = re.compile(
    r"\b(?:broken|damaged|cracked|smashed|crushed|missing|wrong|faulty|defective|dead|"
    r"not\s+working|(?:doesn|isn|won|can)'?t|cannot|errors?|fail\w*|late|lost|stolen|leak\w*|"
    r"crash\w*|slow|down|issues?|problems?|complain\w*|bug|stuck|locked)\b",
    re.IGNORECASE,
)
# A request about what is already there ("send them a replacement", "chase it").
_POINTS_AT_IT = re.compile(r"\b(?:them|it|that|this\s+one|the\s+same)\b", re.IGNORECASE)
# What makes an incident a personal data breach, as its summary would say it.
_PERSONAL_DATA = re.compile(
    r"\b(?:personal|customer|employee|patient|user|client)s?'?\s+(?:data|details|records|"
    r"information|emails?|addresses)|\bdata\s+(?:leak|breach|exposure)|\bleak(?:s|ed)?\b|"
    r"\bexposed\b|\bbreach\b|\bpayslips?\b|\bpii\b|\bgdpr\b|\bwrong\s+recipient|"
    r"\bpasswords?\b|\bcredit\s+cards?\b|\bmedical\s+records\b|\bransomware\b|"
    r"\bstolen\s+(?:laptop|device|phone)"
    # What identifies or describes a person, whoever holds it ("212 employees' salaries and
    # NRIC numbers", "1,200 customer names and emails").
    r"|\b(?:customer|employee|patient|user|client|staff|member)s?'?\s+(?:names?|phone|"
    r"numbers?|salar(?:y|ies)|contacts?|files?)\b|\bsalar(?:y|ies)\b|\bpayroll\b|\bnric\b|"
    r"\bpassports?\b|\bnational\s+id|\bsocial\s+security\b|\bssns?\b|\bdates?\s+of\s+birth\b"
    r"|\bbank\s+(?:details|account)|\bhealth\s+(?:data|records)|\bsent\s+to\s+the\s+wrong\b"
    r"|\b(?:went|gone|emailed|sent)\s+to\s+(?:the\s+wrong|an?\s+outside|an?\s+external)\b"
    r"|\bto\s+the\s+wrong\s+(?:person|people|recipients?|customers?|clients?|suppliers?|"
    r"vendors?|distributors?|address|company|team)\b|\bhome\s+addresses\b"
    r"|\bnames\s+and\s+(?:e-?mails?|addresses|phone\s+numbers)\b",
    re.IGNORECASE,
)
# Told as something that happened ("someone emailed", "it went to", "was sent").
_PAST = re.compile(
    r"\b(?:was|were|went|sent|got|left|lost|stolen|found|emailed|mailed|leaked|exposed|shared|"
    r"posted|uploaded|forwarded|attached|published|happened|noticed|discovered)\b",
    re.IGNORECASE,
)
# A question of whether, or by when, a breach is to be reported.
_NOTIFYING = re.compile(
    r"\b(?:report|notif|regulator|breach|gdpr|deadline|tell\s+the\s+(?:authorit|regulator))",
    re.IGNORECASE,
)
# A service reported failing, not asked about ("is it a known outage?" asks).
_FAILING = re.compile(
    r"\b(?:is|are|went|has\s+gone|keeps?\s+going)\s+(?:down|offline)\b|\bnot\s+working\b|"
    r"\b(?:is|are)\s+(?:broken|failing|crashing|unreachable)\b|\breturning\s+(?:5\d\d|errors)\b",
    re.IGNORECASE,
)
# How an answer says where an incident stands ("is currently investigating" read oddly).
_STATUS_SAID = {
    "investigating": "still under investigation",
    "identified": "identified, with a fix under way",
    "monitoring": "fixed and being monitored",
    "resolved": "resolved",
}
_BARE_SERVICE = re.compile(
    r"\b(?:our|the)\s+(website|web\s*site|web\s*shop|online\s+shop|intranet|wiki|"
    r"helpdesk|crm|erp|network|wi-?fi|phone\s+system)\b",
    re.IGNORECASE,
)


def _service(text: str) -> str | None:
    lowered = text.lower()
    best: tuple[int, int, str] | None = None
    for service, words in _SERVICE_WORDS.items():
        for word in words:
            at = lowered.find(word)
            if at >= 0 and (best is None or (at, -len(word)) < best[:2]):
                best = (at, -len(word), service)
    if best:
        return best[2]
    named = _NAMED_SERVICE.search(text)
    if named is None:
        # "Our website is down": the thing itself, not a service picked at random.
        bare = _BARE_SERVICE.search(text)
        if bare is None:
            return None
        said = " ".join(bare.group(1).split())
        return said if said.isupper() else said.capitalize()  # "CRM" stays
    word, kind = named.groups()
    word = word if word.isupper() else word.lower()  # "HR" stays, "Payroll" is a word
    kind = "API" if kind.lower() == "api" else kind.lower()
    return f"{word[:1].upper()}{word[1:]} {kind}"


class Tickets(Recipe):
    source = "tickets"
    noun = "ticket"
    id_field = "id"
    id_prefix = "TCK"
    id_digits = 6
    about_fields = ("customer_id",)
    worded_fields = frozenset({"subject"})

    def asked(self, ctx: Context) -> Asked | None:
        found = super().asked(ctx)
        return found if found is not None else customer_asked(ctx)

    def lacking(self, saved: Record, action: str) -> str | None:
        # A closed case is not escalated, reassigned or closed again; a problem that is back
        # is a new case. It is still looked at (its status, a survey) and learnt from (a bug).
        if action not in CHANGES or saved.get("status") != "closed" or not saved.get("id"):
            return None
        subject = f' ("{saved["subject"]}")' if saved.get("subject") else ""
        return f"Case {saved['id']}{subject} is closed; open a new case if the problem is back."

    def closed(self, saved: Record, source: str) -> str | None:
        # Nobody is paged for a case that is closed (it was suggested, and paged, after the
        # close); a gesture, a callback or a return may still follow a resolved case.
        if source != "employees" or saved.get("status") != "closed" or not saved.get("id"):
            return None
        return (
            f"Case {saved['id']} is closed, so there is nobody to page for it; open a new case "
            "if the problem is back."
        )

    def phrased(self, record: Record, today: date, stated: Stated) -> Record:
        # A survey of the user's own IT ticket goes to them: it has no customer.
        return {"reporter": "the customer" if record.get("customer_id") else "you"}

    def asks_for_another(self, ctx: Context) -> bool:
        # A ticket is of a problem: "Send them a replacement" after reporting a damaged
        # delivery opened a second ticket, titled with those words, for the same delivery.
        stated = ctx.stated
        said = _PROBLEM.search(stated.text) or stated.ids or stated.people or stated.organisations
        return bool(said) or not _POINTS_AT_IT.search(stated.text)

    def made_already(self, made: Record) -> str:
        who = f", assigned to {made['assignee']}" if made.get("assignee") else ""
        priority = f" ({made['priority']} priority)" if made.get("priority") else ""
        return (
            f"Ticket {made.get('id', '')}{priority} is already open in this conversation{who}, "
            "so I did not open a second one; they will update you on it."
        )

    def stated(self, ctx: Context) -> Record:
        stated = ctx.stated
        out: Record = {}
        subject = first_sentence(stated.text, 90)
        if subject:
            out["subject"] = subject
        priority = stated.priority or keyword_choice(stated.text, _PRIORITY_WORDS)
        if priority:
            out["priority"] = priority
        customer = customer_asked(ctx)
        if customer is not None:
            out["customer_id"] = customer.value
        return out

    def change(self, base: Record, ctx: Context) -> Record:
        out: Record = {}
        priority = ctx.stated.priority or keyword_choice(ctx.stated.text, _PRIORITY_WORDS)
        if priority is None and _ESCALATED.search(ctx.stated.text):
            # An escalation that names no priority is urgent; "escalate it to high priority"
            # is high (it was always urgent).
            priority = "urgent"
        if priority and priority != base.get("priority"):
            out["priority"] = priority
        return out

    def fill(self, record: Record, ctx: Context) -> None:
        record.setdefault("id", self.new_id(ctx))
        if not record.get("subject"):
            record["subject"] = ctx.pick(TICKET_SUBJECTS)
        record.setdefault("priority", "normal")
        record.setdefault("status", "open")
        # The user's own IT ticket (a cracked screen, a phishing email) is no customer's.
        if ctx.requester:
            record.setdefault("customer_id", "")
        elif record.get("customer_id") is None:
            record["customer_id"] = ctx.pick(c["id"] for c in ctx.data.records("customers"))
        if not record.get("assignee"):
            staff = [
                e["name"]
                for e in ctx.data.records("employees")
                if e["department"] in ("Support", "IT")
            ]
            record["assignee"] = ctx.pick(staff or [ctx.person_name()])


class Incidents(Recipe):
    source = "incidents"
    noun = "incident"
    id_field = "id"
    id_prefix = "INC"
    name_field = "service"
    worded_fields = frozenset({"summary"})

    def made_already(self, made: Record) -> str:
        severity = f", {made['severity']}" if made.get("severity") else ""
        status = made.get("status") or "open"
        return (
            f"Incident {made.get('id', '')} ({made.get('service', 'the service')}{severity}), "
            f"declared in this conversation, is {status}, so I did not declare it twice; its "
            "channel has the latest updates."
        )

    def phrased(self, record: Record, today: date, stated: Stated) -> Record:
        status = str(record.get("status") or "investigating")
        return {
            "status_said": _STATUS_SAID.get(status, status),
            "breach_view": _breach_view(record),
        }

    def unrecorded(self, ctx: Context) -> str:
        # "Do we have to report the data leak?" with no incident on record: what is said is
        # enough to tell the deadline, which runs whether or not it was declared. An outage
        # reported of a service with none on record is to be declared.
        text = ctx.stated.text
        if _PERSONAL_DATA.search(text) and _NOTIFYING.search(text):
            found = ctx.stated.first_date
            if found is not None and found > ctx.today and _PAST.search(text):
                # "On Friday someone emailed it": the Friday that has been.
                found -= timedelta(days=7)
            by = (
                f" (found on {found.isoformat()}: by {(found + timedelta(hours=72)).isoformat()})"
                if found is not None and found <= ctx.today
                else ""
            )
            return (
                " From what you say, it involves personal data: unless the data was encrypted "
                "or puts nobody at risk, the regulator is to be told within 72 hours of finding "
                f"it{by}. Declare it as an incident so that it is on record."
            )
        service = _service(text)
        if service and _FAILING.search(text):
            # "Our payroll service is down" reported an outage and heard only that none is on
            # record: what to do about it, too.
            return (
                f" If {service} is failing now, declare an incident for it so that it is on "
                f'record ("Declare an incident: {service} is down").'
            )
        return ""

    def asked(self, ctx: Context) -> Asked | None:
        found = super().asked(ctx)
        if found is not None:
            return found
        service = _service(ctx.stated.text)
        if service is not None:
            return Asked("service", service, f"on {service}")
        return None

    def stated(self, ctx: Context) -> Record:
        stated = ctx.stated
        out: Record = {}
        service = _service(stated.text)
        if service:
            out["service"] = service
        severity = stated.severity or keyword_choice(stated.text, _SEVERITY_BY_WORD)
        if severity:
            out["severity"] = severity
        summary = first_sentence(stated.text, 120)
        if summary:
            out["summary"] = summary
        return out

    def asks_for_another(self, ctx: Context) -> bool:
        # An incident is of something broken: "Let our customers know" or "Who's on call?"
        # after declaring one asked the form again, for a second incident.
        text = ctx.stated.text
        return bool(ctx.stated.severity or _service(text) or _BROKEN.search(text))

    def changes_made(self, made: Record, ctx: Context) -> bool:
        # "Make it a sev1" after declaring it: the same incident, not a second one; a sev1
        # on another service is another incident.
        severity, service = ctx.stated.severity, _service(ctx.stated.text)
        if not severity or severity == made.get("severity"):
            return False
        return service is None or service.casefold() == str(made.get("service", "")).casefold()

    def change(self, base: Record, ctx: Context) -> Record:
        out: Record = {}
        if ctx.stated.severity and ctx.stated.severity != base.get("severity"):
            out["severity"] = ctx.stated.severity
        # "Post a status page update that we are investigating": that status, not another.
        status = keyword_choice(ctx.stated.text, _INCIDENT_STATUS_WORDS)
        if status and status != base.get("status"):
            out["status"] = status
        return out

    def fill(self, record: Record, ctx: Context) -> None:
        record.setdefault("id", self.new_id(ctx))
        if not record.get("service"):
            record["service"] = ctx.pick(SERVICES)
        record.setdefault("severity", "sev3")
        record.setdefault("status", "investigating")
        if not record.get("summary"):
            record["summary"] = ctx.pick(INCIDENT_SYMPTOMS).format(service=record["service"])
        if not record.get("started_at"):
            hour, minute = ctx.rng.randint(0, 23), ctx.rng.randrange(0, 60, 5)
            record["started_at"] = f"{ctx.today.isoformat()}T{hour:02d}:{minute:02d}Z"


def _breach_view(incident: Record) -> str:
    """Whether an incident is a personal data breach to notify, from what is recorded of it,
    and by when: the assessment said it "assessed the notification duties" and not what they
    were, even for a checkout returning 500s."""
    summary = str(incident.get("summary") or "").strip().rstrip(".")
    said = f' ("{summary}")' if summary else ""
    if not _PERSONAL_DATA.search(summary):
        return (
            f"nothing recorded of it{said} involves personal data, so on what is known there is "
            "no breach to notify. If personal data was exposed, tell me what: the 72-hour "
            "deadline runs from when you found out."
        )
    started = str(incident.get("started_at") or "")
    try:
        found = datetime.fromisoformat(started.replace("Z", "+00:00"))
        by = f", by {(found + timedelta(hours=72)).strftime('%Y-%m-%d %H:%M')} UTC"
    except ValueError:
        by = ""
    return (
        f"what is recorded of it{said} involves personal data, so unless the data was "
        f"encrypted or puts nobody at risk, notify the regulator within 72 hours of finding "
        f"it{by}, and tell the people affected without undue delay if the risk to them is high."
    )


# Words that say a device is for someone who is joining, not for the person asking: the
# lexicon's hiring verbs ("we just hired"), and how a new starter is called.
_NEW_HIRE = re.compile(
    rf"\b(?:{'|'.join(sorted(HIRING_VERBS))}|new (?:hire|starter|joiner|employee|colleague)|"
    r"joins|joining|starts on|first day)\b",
    re.IGNORECASE,
)


class Assets(Recipe):
    source = "assets"
    noun = "device"
    id_field = "tag"
    id_prefix = "AST"

    def requester(self, ctx: Context) -> Record:
        """The device of the kind the request names ("my work laptop"): the named
        colleague's, else the user's own."""
        kind = keyword_choice(ctx.stated.text, _ASSET_WORDS) or "laptop"
        named = ctx.stated.names_of("employee")
        owner = named[0].shown if named else ctx.user
        seed = hashlib.sha256(f"asset/{owner}/{kind}".encode("utf-8", "surrogatepass"))
        own = Context(
            ctx.stated, ctx.today, random.Random(seed.digest()), ctx.data, ctx.places, ctx.user
        )
        named = ctx.stated.names_of("employee")
        holder = named[0].shown if named else ctx.user_name
        record: Record = {"kind": kind, "assigned_to": holder}
        model = _model_named(ctx, kind)
        if model:
            record["model"] = model  # "my work MacBook": the MacBook, not a ThinkPad
        self.fill(record, own)
        return record

    def not_for(self, ctx: Context, given: Record) -> str | None:
        stated = ctx.stated
        unnamed = not (
            given.get("assigned_to")
            or given.get("new_hire")
            or stated.names_of("employee", "candidate")
            or stated.unknown_people()
        )
        if unnamed and not stated.speaks_of_self:
            if stated.speaks_of_another:
                # "Order him a laptop" with nobody named or saved here: not the user's device.
                return WHO_FOR
            if _NEW_HIRE.search(stated.text):
                # "…for the person we just hired": a new starter, not the user.
                return (
                    "Who is the new starter? Tell me their name and I'll get their laptop and "
                    "accounts ready; I won't guess who you mean."
                )
        # Our devices are for our staff: ten headsets for a customer are a sale.
        customer = next(iter(ctx.stated.names_of("customer")), None)
        if customer is None or ctx.stated.names_of("employee"):
            return None
        quantity = next((q for q in ctx.stated.quantities if not q.unit), None)
        what = f"{int(quantity.count)} {_plural(quantity.item)}" if quantity else "them"
        return (
            f"{customer.shown} is a customer of ours; devices and accessories here are for our "
            f'own staff. To sell {what} to {customer.shown}, ask: "Place a customer order of '
            f'{what} for {customer.shown}".'
        )

    def stated(self, ctx: Context) -> Record:
        stated = ctx.stated
        out: Record = {}
        kind = keyword_choice(stated.text, _ASSET_WORDS)
        counted = next((q for q in stated.quantities if not q.unit and q.item), None)
        if kind:
            out["kind"] = kind
            model = _model_named(ctx, kind)
            if model:
                out["model"] = model
        elif counted is not None:
            # "12 standing desks": what was asked for, not a device of another kind picked
            # for it (twelve phones were ordered).
            out["kind"] = singular(counted.item)
        # A colleague, a candidate, or a new hire no directory has yet ("we hired Kwame Varga").
        holders = stated.names_of("employee", "candidate") or stated.unknown_people()
        if holders:
            out["assigned_to"] = holders[0].shown
        elif stated.speaks_of_self:
            out["assigned_to"] = ctx.user_name  # "and one for me": not the new hire's again
        # "3 monitors for the new starters": three, not one.
        count = next((q.count for q in stated.quantities if not q.unit and q.count >= 2), None)
        if count is not None and count == int(count):
            out["count"] = int(count)
        return out

    def phrased(self, record: Record, today: date, stated: Stated) -> Record:
        # What an order of accessories was, as its answer says it: "3 monitors (LG 27UP850)
        # for Anna Kowalski, tracked as AST-17631".
        count, kind = record.get("count") or 1, str(record.get("kind") or "device")
        what = f"{count} {_plural(kind)}" if count > 1 else f"a {kind}"
        holder = f" for {record['assigned_to']}" if record.get("assigned_to") else ""
        return {
            "ordered": f"{what} ({record.get('model')}){holder}, tracked as {record.get('tag')}"
        }

    def made_already(self, made: Record) -> str:
        if (made.get("count") or 1) > 1:
            holder = f" for {made['assigned_to']}" if made.get("assigned_to") else ""
            return (
                f"The {made['count']} {_plural(str(made.get('kind') or 'device'))}{holder} "
                f"({made.get('model')}, tracked as {made.get('tag')}) are already ordered in "
                "this conversation, so I did not order them again; say what should be different "
                "to get more."
            )
        return (
            f"{made.get('assigned_to') or 'This conversation'} already has {made['tag']} "
            f"({made.get('model') or made.get('kind')}) reserved here, so I did not reserve a "
            f"second {made.get('kind') or 'device'}; say what should be different to get another."
        )

    def changes_made(self, made: Record, ctx: Context) -> bool:
        # "Add 5 more" after "Order 3 monitors": the same order, of 8 (it ordered one monitor
        # more, under a new tag); more of another kind is another order.
        kind = keyword_choice(ctx.stated.text, _ASSET_WORDS)
        if kind not in (None, made.get("kind")):
            return False
        # "Her start date just moved to the 11th": the same laptop, ready for the new day.
        moved = ctx.stated.first_date is not None and CHANGES_IT.search(ctx.stated.text)
        return _count_said(ctx.stated.text) is not None or bool(moved)

    def change(self, base: Record, ctx: Context) -> Record:
        said = _count_said(ctx.stated.text)
        day = ctx.stated.first_date
        if said is None:
            return {"needed_by": day.isoformat()} if day is not None else {}
        count, more = said
        total = (base.get("count") or 1) + count if more else count
        return {"count": total} if total != (base.get("count") or 1) and total >= 1 else {}

    def fill(self, record: Record, ctx: Context) -> None:
        record.setdefault("tag", self.new_id(ctx))
        if not record.get("kind"):
            record["kind"] = ctx.pick(ASSET_MODELS)
        if not record.get("model"):
            record["model"] = ctx.pick(ASSET_MODELS.get(record["kind"], ("standard model",)))
        if not record.get("assigned_to"):
            # Equipment for a new hire goes to them; anything else to the person asking.
            record["assigned_to"] = record.get("new_hire") or ctx.user_name
        record.setdefault("status", "in use")


# "5 more", "another 2", "another one", "make it 6 in all".
_MORE = re.compile(rf"\b(?:(?P<n>{NUMBER})\s+more|another(?:\s+(?P<m>{NUMBER}))?)\b", re.I)
_IN_ALL = re.compile(rf"\b(?:make\s+it|change\s+it\s+to)\s+(?P<n>{NUMBER})\b(?!\s*%)", re.I)


def _count_said(text: str) -> tuple[int, bool] | None:
    """The count a follow-up to an order says, and whether it comes on top: "add 5 more" is
    (5, True), "make it 6" (6, False); None when it says no count."""
    more = _MORE.search(text)
    if more:
        number = more.group("n") or more.group("m")
        value = parse_number(number) if number else 1
        return (int(value), True) if value is not None and value == int(value) else None
    total = _IN_ALL.search(text)
    if total:
        value = parse_number(total.group("n"))
        return (int(value), False) if value is not None and value == int(value) else None
    return None


def _model_named(ctx: Context, kind: str) -> str | None:
    """The model of ``kind`` the request names, in full or by its first word ("MacBook",
    "iPhone", "Pixel")."""
    for model in ASSET_MODELS.get(kind, ()):
        for said in (model, model.split()[0]):
            if re.search(rf"\b{re.escape(said)}\b", ctx.stated.text, re.IGNORECASE):
                return model
    return None


def _plural(noun: str) -> str:
    """ "headset" -> "headsets", "box" -> "boxes", "battery" -> "batteries"."""
    if noun.endswith(("s", "x", "ch", "sh")):
        return noun + "es" if not noun.endswith("s") else noun
    if noun.endswith("y") and noun[-2:-1] not in ("a", "e", "i", "o", "u"):
        return noun[:-1] + "ies"
    return noun + "s"
