"""Nothing kept past its time: a channel identity removed by the sweep takes its workflow
progress, actions (one approved and not yet run among them) and outbox records with it, on
every backend, through the deployment's sweep (what the server's sweeper runs) and the
``mock-account sweep`` command. A dump of the store finds nothing left under its id."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from server_stores import fresh_url, unreachable
from store_dump import dump

from mock_account.channels import sweep_channels
from mock_account.conversations.retention import RetentionPolicy, sweep
from mock_account.deployment import AccountConfig, Deployment, build_deployment
from mock_account.stores import StoreUnavailable, open_store
from mock_account.users import User

HIRE = "CompleteNewHireOnboarding"
ONBOARDING = "new_hire_onboarding"
PAPERWORK = {"legal_name": "Ann Lee", "start_date": "2026-12-07", "contract_signed": "yes"}
MAIL = {"to": "ann@example.org", "subject": "Welcome", "body": "Your laptop is on its way"}
POLICY = RetentionPolicy.of(free_days=7, paid_days=7)


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def make_deployment(tmp_path: Path, clock: Clock) -> Iterator[Callable[..., Deployment]]:
    opened: list[Deployment] = []

    def make(url: str, **options: Any) -> Deployment:
        config = AccountConfig(
            data_dir=tmp_path,
            store_url=url,
            search="bm25",
            clock=clock,
            retention=POLICY,
            **options,
        )
        built = build_deployment(config)
        opened.append(built)
        return built

    yield make
    for built in opened:
        built.close()


@pytest.fixture(params=["memory", "sqlite", "postgres", "redis"])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[str, str]]:
    url, cleanup = fresh_url(request.param, tmp_path, "wfsweep")
    try:
        open_store(url).close()
    except StoreUnavailable as exc:
        unreachable(request.param, exc)
    try:
        yield request.param, url
    finally:
        cleanup()


def _stage(built: Deployment, admin: User, sender: str) -> str:
    """One onboarding stage as an email sender; the sender's identity id."""
    asked = built.channels.deliver(
        admin, channel="email", sender=sender, agent_name=HIRE, query="continue my onboarding"
    )
    assert asked.result.result_code == "ask", asked.result.error
    done = built.channels.deliver(
        admin, channel="email", sender=sender, agent_name=HIRE, inputs=PAPERWORK
    )
    assert done.result.result_code == "success", done.result.error
    return done.identity


def _records_of(built: Deployment, owner: str) -> list[tuple[str, str]]:
    store = built.workflows.store  # type: ignore[union-attr]
    return (
        [("progress", r.workflow) for r in store.all_progress() if r.identity == owner]
        + [("action", r.status) for r in store.all_actions() if r.identity == owner]
        + [("outbox", r.action_id) for r in store.all_outbox() if r.identity == owner]
    )


def _file_records(built: Deployment, admin: User, owner: str) -> None:
    """Progress (from the stage run), an action approved and not yet run, one that ran and
    its outbox record."""
    ledger = built.actions
    assert ledger is not None
    waiting, _ = ledger.propose(admin.account, owner, kind="email", payload=MAIL)
    ledger.approve(admin.account, owner, waiting["actionId"])  # approved, not run
    ran, _ = ledger.propose(
        admin.account, owner, kind="email", payload=MAIL, requires_approval=False
    )
    assert ledger.execute(admin.account, ran["actionId"])["status"] == "done"  # type: ignore[index]


def test_the_sweep_removes_an_idle_identitys_workflow_records(
    make_deployment: Callable[..., Deployment], backend: tuple[str, str], clock: Clock
) -> None:
    kind, url = backend
    built = make_deployment(url)
    admin = built.users.users[0]
    ann = f"email:{_stage(built, admin, 'ann@example.org')}"
    _file_records(built, admin, ann)
    statuses = sorted(_records_of(built, ann))
    assert [s for s in statuses if s[0] != "outbox"] == [
        ("action", "approved"),
        ("action", "done"),
        ("progress", ONBOARDING),
    ]
    assert len(statuses) == 4  # and one outbox record
    clock.now += timedelta(days=8)
    bob = f"email:{_stage(built, admin, 'bob@example.org')}"  # active: kept
    _file_records(built, admin, bob)
    bob_before = sorted(_records_of(built, bob))
    assert sweep(built.account.store, built.users.users, clock(), POLICY).deleted

    summary = built.sweep_channels(clock())

    assert summary == "1 channel identit(ies) deleted with 4 workflow record(s)"
    assert _records_of(built, ann) == []
    assert sorted(_records_of(built, bob)) == bob_before
    assert built.channels.records.get_identity(admin.account, ann.split(":", 1)[1]) is None
    # Ann's approved action that had not run is gone: a restart's recovery runs Bob's only.
    assert built.actions.recover(admin.account) == 1  # type: ignore[union-attr]
    assert _records_of(built, ann) == []
    if kind != "memory":  # (the memory dump reads the conversation store only)
        records = dump(kind, url, built.account.store)
        assert records.holding(ann.split(":", 1)[1].encode()) == []
        assert records.holding(bob.split(":", 1)[1].encode())  # the dump does see the records
    assert (
        built.sweep_channels(clock()) == "0 channel identit(ies) deleted with 0 workflow record(s)"
    )


def test_the_servers_sweeper_removes_them(
    make_deployment: Callable[..., Deployment], clock: Clock
) -> None:
    built = make_deployment("memory://", sweep_interval_s=0.01)
    admin = built.users.users[0]
    ann = f"email:{_stage(built, admin, 'ann@example.org')}"
    _file_records(built, admin, ann)
    clock.now += timedelta(days=8)
    stop = threading.Event()
    thread = built.start_sweeper(stop)
    assert thread is not None
    try:
        deadline = time.monotonic() + 10
        while _records_of(built, ann) and time.monotonic() < deadline:
            time.sleep(0.01)
    finally:
        stop.set()
        thread.join(5)
    assert _records_of(built, ann) == []
    assert built.channels.records.list_identities() == []


def test_the_sweep_command_removes_them(
    make_deployment: Callable[..., Deployment],
    tmp_path: Path,
    clock: Clock,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from mock_account.cli.commands import main

    url = f"sqlite:///{tmp_path / 'sweep' / 'conversations.db'}"
    built = make_deployment(url)
    admin = built.users.users[0]
    ann = f"email:{_stage(built, admin, 'ann@example.org')}"
    _file_records(built, admin, ann)
    built.close()
    later = (clock() + timedelta(days=8)).isoformat()
    args = ["sweep", "--store", url, "--data-dir", str(tmp_path), "--now", later]
    assert main([*args, "--paid-days", "7"]) == 0
    out = capsys.readouterr().out
    assert "1 channel identities deleted with their memory and 4 workflow records" in out
    after = make_deployment(url)
    assert _records_of(after, ann) == []


class _SenderReturnsDuringSweep:
    """Channel records whose ``delete_identity`` first lets ``arrive`` run: a message of the
    sender lands between the sweep's look at the identity and its delete."""

    def __init__(self, records: Any, arrive: Callable[[], None]) -> None:
        self._records, self._arrive = records, arrive

    def delete_identity(self, *args: Any, **kwargs: Any) -> bool:
        arrive, self._arrive = self._arrive, lambda: None
        arrive()
        return self._records.delete_identity(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._records, name)


def test_a_sender_who_comes_back_during_the_sweep_keeps_everything(
    make_deployment: Callable[..., Deployment], backend: tuple[str, str], clock: Clock
) -> None:
    _, url = backend
    built = make_deployment(url)
    admin = built.users.users[0]
    ann = f"email:{_stage(built, admin, 'ann@example.org')}"
    clock.now += timedelta(days=8)
    assert sweep(built.account.store, built.users.users, clock(), POLICY).deleted
    came_back: list[Any] = []

    def arrive() -> None:
        for inputs in ({"query": "continue my onboarding"}, {"laptop": "linux", "remote": "no"}):
            came_back.append(
                built.channels.deliver(
                    admin, channel="email", sender="ann@example.org", agent_name=HIRE,
                    inputs=inputs,
                )
            )  # fmt: skip

    racing = _SenderReturnsDuringSweep(built.channels.records, arrive)
    report = sweep_channels(
        racing, built.account.store, built.users.users, clock(), POLICY, built.workflows.store
    )

    assert report.deleted_identities == [] and report.workflow_records == 0
    assert [d.result.result_code for d in came_back] == ["ask", "success"]
    assert came_back[-1].identity == ann.split(":", 1)[1]
    progress = built.workflows.view(admin.account, ann, ONBOARDING)  # type: ignore[union-attr]
    assert progress["stage"] == "first_day"  # what the sender's message just did
    assert built.channels.records.get_identity(admin.account, ann.split(":", 1)[1]) is not None


def test_records_a_stopped_sweep_left_behind_go_with_the_next_one(
    make_deployment: Callable[..., Deployment], backend: tuple[str, str], clock: Clock
) -> None:
    """A sweep that stopped after deleting the identity and before its workflow records: the
    next sweep finds them by their owner, before the sender's id could be given out again."""
    _, url = backend
    built = make_deployment(url)
    admin = built.users.users[0]
    ann = f"email:{_stage(built, admin, 'ann@example.org')}"
    _file_records(built, admin, ann)
    assert built.channels.records.delete_identity(admin.account, ann.split(":", 1)[1])
    assert len(_records_of(built, ann)) == 4

    summary = built.sweep_channels(clock())

    assert summary == "0 channel identit(ies) deleted with 4 workflow record(s)"
    assert _records_of(built, ann) == []
    again = built.channels.deliver(
        admin, channel="email", sender="ann@example.org", agent_name=HIRE,
        query="continue my onboarding",
    )  # fmt: skip
    view = built.workflows.view(admin.account, ann, ONBOARDING)  # type: ignore[union-attr]
    assert again.result.result_code == "ask" and view["stage"] == "paperwork"


def test_a_message_whose_identity_the_sweep_takes_mid_routing_starts_afresh(
    make_deployment: Callable[..., Deployment], clock: Clock
) -> None:
    built = make_deployment("memory://")
    admin = built.users.users[0]
    ann = _stage(built, admin, "ann@example.org")
    records = built.channels.records
    real_touch = records.touch_identity
    taken: list[bool] = []

    def touch_after_the_sweep(account: str, identity: str, now: datetime) -> bool:
        if not taken:
            taken.append(records.delete_identity(account, identity))
        return real_touch(account, identity, now)

    records.touch_identity = touch_after_the_sweep  # type: ignore[method-assign]
    again = built.channels.deliver(
        admin, channel="email", sender="ann@example.org", agent_name=HIRE,
        query="continue my onboarding",
    )  # fmt: skip
    assert taken == [True]
    assert again.result.result_code == "ask" and again.resumed is False
    assert again.identity == ann and records.get_identity(admin.account, ann) is not None
