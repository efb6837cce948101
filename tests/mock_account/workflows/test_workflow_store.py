"""The workflow store contract, on every backend (memory, SQLite, PostgreSQL, Redis)."""

from __future__ import annotations

import threading

import pytest
from workflow_helpers import Clock

from mock_account.stores import VersionConflict
from mock_account.workflows import WorkflowStore


def test_progress_is_compare_and_swap(wf_store: WorkflowStore, clock: Clock) -> None:
    assert wf_store.load_progress("acme", "ann@acme.test", "onboarding") is None
    first = wf_store.save_progress(
        "acme", "ann@acme.test", "onboarding", expected_version=0, blob=b"one", now=clock()
    )
    assert first.version == 1
    with pytest.raises(VersionConflict):
        wf_store.save_progress(
            "acme", "ann@acme.test", "onboarding", expected_version=0, blob=b"x", now=clock()
        )
    clock.tick()
    second = wf_store.save_progress(
        "acme", "ann@acme.test", "onboarding", expected_version=1, blob=b"two", now=clock()
    )
    assert second.version == 2
    with pytest.raises(VersionConflict):
        wf_store.save_progress(
            "acme", "ann@acme.test", "onboarding", expected_version=1, blob=b"x", now=clock()
        )
    loaded = wf_store.load_progress("acme", "ann@acme.test", "onboarding")
    assert loaded is not None
    assert (loaded.version, loaded.blob, loaded.updated) == (2, b"two", clock())


def test_progress_is_isolated_per_account_and_identity(
    wf_store: WorkflowStore, clock: Clock
) -> None:
    wf_store.save_progress("acme", "ann", "onboarding", expected_version=0, blob=b"a", now=clock())
    wf_store.save_progress("acme", "ann", "supplier", expected_version=0, blob=b"s", now=clock())
    wf_store.save_progress("acme", "bob", "onboarding", expected_version=0, blob=b"b", now=clock())
    wf_store.save_progress("globex", "ann", "w", expected_version=0, blob=b"g", now=clock())
    assert [r.workflow for r in wf_store.list_progress("acme", "ann")] == ["onboarding", "supplier"]
    assert [r.blob for r in wf_store.list_progress("acme", "bob")] == [b"b"]
    assert [r.blob for r in wf_store.list_progress("globex", "ann")] == [b"g"]
    assert wf_store.list_progress("globex", "bob") == []
    # Identities with separators in them stay apart from one another.
    wf_store.save_progress("acme", "a:b", "w", expected_version=0, blob=b"1", now=clock())
    wf_store.save_progress("acme", "a", "b:w", expected_version=0, blob=b"2", now=clock())
    assert wf_store.load_progress("acme", "a:b", "w").blob == b"1"  # type: ignore[union-attr]
    assert wf_store.load_progress("acme", "a", "b:w").blob == b"2"  # type: ignore[union-attr]


def test_concurrent_progress_saves_lose_nothing(wf_store: WorkflowStore, clock: Clock) -> None:
    """Eight writers race on one record; each wins exactly when its version matched."""
    wf_store.save_progress("acme", "ann", "w", expected_version=0, blob=b"0", now=clock())
    wins: list[int] = []
    lock = threading.Lock()

    def writer(n: int) -> None:
        for _ in range(30):
            current = wf_store.load_progress("acme", "ann", "w")
            assert current is not None
            try:
                wf_store.save_progress(
                    "acme", "ann", "w", expected_version=current.version, blob=b"x", now=clock()
                )
            except VersionConflict:
                continue
            with lock:
                wins.append(n)

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    final = wf_store.load_progress("acme", "ann", "w")
    assert final is not None and final.version == 1 + len(wins)


def test_actions_insert_once_and_move_by_status(wf_store: WorkflowStore, clock: Clock) -> None:
    record, created = wf_store.add_action("acme", "act_00000001", "ann", "awaiting", b"p", clock())
    assert created and record.status == "awaiting" and record.blob == b"p"
    again, created = wf_store.add_action("acme", "act_00000001", "bob", "approved", b"q", clock())
    assert not created and again == record  # the first one stands, untouched
    clock.tick()
    assert (
        wf_store.move_action(
            "acme", "act_00000001", from_statuses=["approved"], to_status="done", now=clock()
        )
        is None
    )
    moved = wf_store.move_action(
        "acme", "act_00000001", from_statuses=["awaiting"], to_status="approved", now=clock()
    )
    assert moved is not None and moved.status == "approved" and moved.blob == b"p"
    assert moved.updated == clock() and moved.created < moved.updated
    moved = wf_store.move_action(
        "acme",
        "act_00000001",
        from_statuses=["approved", "executing"],
        to_status="done",
        now=clock(),
        blob=b"r",
    )
    assert moved is not None and (moved.status, moved.blob) == ("done", b"r")
    assert (
        wf_store.move_action("acme", "missing0", from_statuses=["done"], to_status="x", now=clock())
        is None
    )
    assert wf_store.get_action("globex", "act_00000001") is None


def test_action_listing_filters_and_orders(wf_store: WorkflowStore, clock: Clock) -> None:
    for n, (who, status) in enumerate([("ann", "a"), ("bob", "a"), ("ann", "b"), ("ann", "a")]):
        clock.tick()
        wf_store.add_action("acme", f"act_{n:08d}", who, status, b"x", clock())
    wf_store.add_action("globex", "act_99999999", "ann", "a", b"x", clock())
    assert [r.action_id for r in wf_store.list_actions("acme", "ann")] == [
        "act_00000003",
        "act_00000002",
        "act_00000000",
    ]
    assert [r.action_id for r in wf_store.list_actions("acme", statuses=["a"])] == [
        "act_00000003",
        "act_00000001",
        "act_00000000",
    ]
    assert wf_store.list_actions("acme", statuses=[]) == []
    assert [r.action_id for r in wf_store.list_actions("globex")] == ["act_99999999"]


def test_outbox_delivers_each_action_once(wf_store: WorkflowStore, clock: Clock) -> None:
    assert wf_store.deliver("acme", "act_00000001", "ann", b"mail", clock()) is True
    clock.tick()
    assert wf_store.deliver("acme", "act_00000001", "ann", b"again", clock()) is False
    assert wf_store.deliver("acme", "act_00000002", "bob", b"im", clock()) is True
    assert wf_store.deliver("globex", "act_00000001", "ann", b"other", clock()) is True
    ann = wf_store.list_outbox("acme", "ann")
    assert [(r.action_id, r.blob) for r in ann] == [("act_00000001", b"mail")]
    assert [r.action_id for r in wf_store.list_outbox("acme")] == ["act_00000002", "act_00000001"]


def test_concurrent_deliveries_leave_one_record(wf_store: WorkflowStore, clock: Clock) -> None:
    firsts: list[bool] = []

    def deliver() -> None:
        firsts.append(wf_store.deliver("acme", "act_racing01", "ann", b"m", clock()))

    threads = [threading.Thread(target=deliver) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert firsts.count(True) == 1
    assert len(wf_store.list_outbox("acme")) == 1


def test_bad_keys_are_refused(wf_store: WorkflowStore, clock: Clock) -> None:
    with pytest.raises(ValueError, match="identity"):
        wf_store.save_progress("acme", "", "w", expected_version=0, blob=b"x", now=clock())
    with pytest.raises(ValueError, match="action_id"):
        wf_store.add_action("acme", "", "ann", "a", b"x", clock())


def _snapshot(wf_store: WorkflowStore) -> set[tuple]:
    """Every record of every account, as comparable tuples."""
    return (
        {("progress", r.account, r.identity, r.workflow, r.blob) for r in wf_store.all_progress()}
        | {("action", r.account, r.action_id, r.identity, r.status) for r in wf_store.all_actions()}
        | {("outbox", r.account, r.action_id, r.identity, r.blob) for r in wf_store.all_outbox()}
    )


def test_forget_identity_removes_exactly_that_identitys_records(
    wf_store: WorkflowStore, clock: Clock
) -> None:
    """Progress, actions in every status (one approved and not yet run) and outbox records of
    one identity go at once; another identity, one whose id it starts with, and the same id
    in another account keep theirs."""
    gone, other, prefix = "email:a/b c:ä", "email:ada", "email:a"
    for identity in (gone, other, prefix):
        for workflow in ("onboarding", "supplier/x"):
            wf_store.save_progress(
                "acme", identity, workflow, expected_version=0, blob=b"p", now=clock()
            )
    wf_store.save_progress("globex", gone, "onboarding", expected_version=0, blob=b"g", now=clock())
    wf_store.add_action("acme", "act_gone/1", gone, "approved", b"waits", clock())
    wf_store.add_action("acme", "act_gone:2", gone, "done", b"ran", clock())
    wf_store.deliver("acme", "act_gone:2", gone, b"mail", clock())
    wf_store.add_action("acme", "act_other", other, "approved", b"o", clock())
    wf_store.deliver("acme", "act_other", other, b"o", clock())
    wf_store.add_action("acme", "act_prefix", prefix, "done", b"x", clock())
    wf_store.add_action("globex", "act_gone/1", gone, "approved", b"g", clock())
    wf_store.deliver("globex", "act_gone/1", gone, b"g", clock())
    before = _snapshot(wf_store)

    assert wf_store.forget_identity("acme", gone) == 5  # 2 progress, 2 actions, 1 outbox

    removed = {r for r in before if r[1] == "acme" and gone in r}
    assert len(removed) == 5
    assert _snapshot(wf_store) == before - removed
    assert wf_store.list_progress("acme", gone) == []
    assert wf_store.list_actions("acme", gone) == []
    assert wf_store.list_outbox("acme", gone) == []
    assert wf_store.get_action("acme", "act_gone/1") is None
    assert [r.action_id for r in wf_store.list_actions("acme")] == ["act_prefix", "act_other"]
    assert [r.action_id for r in wf_store.list_outbox("acme")] == ["act_other"]
    assert len(wf_store.list_progress("acme", other)) == 2
    assert len(wf_store.list_progress("acme", prefix)) == 2
    assert len(wf_store.list_progress("globex", gone)) == 1
    # Nothing left: a second call removes nothing; the identity can start afresh.
    assert wf_store.forget_identity("acme", gone) == 0
    assert wf_store.forget_identity("acme", "email:never-seen") == 0
    fresh = wf_store.save_progress(
        "acme", gone, "onboarding", expected_version=0, blob=b"new", now=clock()
    )
    assert fresh.version == 1
    with pytest.raises(ValueError, match="identity"):
        wf_store.forget_identity("acme", "")
