"""PostgreSQL specifics: recovery from dropped connections, migrations, integrity checks."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import psycopg
import pytest
from server_stores import fresh_url, open_or_skip, with_option

from mock_account.stores import ConversationStore, StoreError, open_store
from mock_account.stores.postgres.schema import LATEST

NOW = datetime(2026, 3, 1, tzinfo=UTC)


@pytest.fixture
def pg_url(tmp_path: Path) -> Iterator[str]:
    url, cleanup = fresh_url("postgres", tmp_path)
    open_or_skip(url, "postgres").close()
    try:
        yield url
    finally:
        cleanup()


def _admin(url: str) -> psycopg.Connection:
    plain = url.split("?")[0] + "?connect_timeout=5"
    return psycopg.connect(plain, autocommit=True)


def _schema(url: str) -> str:
    return url.split("schema=")[1].split("&")[0]


def _create(store: ConversationStore, convid: str) -> None:
    store.commit_run(
        account="acme",
        convid=convid,
        owner="ada@example.com",
        expected_version=0,
        blob=b"s",
        now=NOW,
        title_if_new=b"t",
    )


def test_store_recovers_after_its_connections_are_killed(pg_url: str) -> None:
    name = f"store-test-{uuid.uuid4().hex[:10]}"
    with open_store(with_option(pg_url, f"application_name={name}&pool_max=2")) as store:
        _create(store, "c1")
        with _admin(pg_url) as admin:
            killed = admin.execute(
                # Waiting until each backend has ended: the store is to recover from
                # connections that are gone, not race their shutdown.
                "SELECT count(pg_terminate_backend(pid, 5000)) FROM pg_stat_activity "
                "WHERE application_name = %s",
                (name,),
            ).fetchone()[0]
        assert killed >= 1
        assert store.get_entry("acme", "c1").state_version == 1
        _create(store, "c2")
        assert {e.convid for e in store.iter_entries()} == {"c1", "c2"}


def test_reopening_keeps_data_and_schema_version(pg_url: str) -> None:
    with open_store(pg_url) as store:
        _create(store, "c1")
    with open_store(pg_url) as store:
        assert store.get_entry("acme", "c1") is not None
        assert store.check_integrity() == []
    with _admin(pg_url) as admin:
        rows = admin.execute(f'SELECT version FROM "{_schema(pg_url)}".schema_version').fetchall()
    assert rows == [(LATEST,)]


def test_newer_schema_is_refused(pg_url: str) -> None:
    with _admin(pg_url) as admin:
        admin.execute(f'UPDATE "{_schema(pg_url)}".schema_version SET version = 99')
    with pytest.raises(StoreError, match="version 99, newer"):
        open_store(pg_url)


def test_integrity_check_reports_stale_rows(pg_url: str) -> None:
    with open_store(pg_url) as store:
        _create(store, "c1")
        with _admin(pg_url) as admin:
            admin.execute(f"UPDATE \"{_schema(pg_url)}\".entries SET last_used = 'epoch'")
        assert store.check_integrity() == ["conversation 'c1' of account 'acme': stale last_used"]


def test_a_save_takes_the_primary_key_whatever_the_statistics_say(pg_url: str) -> None:
    # A table that grew in minutes has no statistics (autovacuum is slow to react, or off):
    # the save's UPDATE must still find its row by the primary key, not walk the owner's range
    # of the listing index.
    from mock_account.stores.postgres.store import _SQL

    with open_store(pg_url) as store:
        _create(store, "c0")
    schema = _schema(pg_url)
    rows = (
        f"INSERT INTO {schema}.entries SELECT account, 'c' || n, owner, title, created, "
        "last_executed, last_read, last_used, pinned, state_version, last_agent "
        f"FROM {schema}.entries, generate_series(%s::int, %s::int) AS n WHERE convid = 'c0'"
    )
    with _admin(pg_url) as admin:
        # Analysed while it held one conversation, then grown by a load test.
        admin.execute(f"ANALYZE {schema}.entries")
        admin.execute(rows, (1, 100000))
        sql = "EXPLAIN " + _SQL["advance"].format(s=schema)
        params = (NOW, NOW, "A", "acme", "c77", "ada@example.com", 1)
        plan = "\n".join(row[0] for row in admin.execute(sql, params).fetchall())
    assert "entries_pkey" in plan and "entries_by_user" not in plan, plan
