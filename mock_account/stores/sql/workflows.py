"""The workflow records' SQL, shared by SQLite and PostgreSQL (each backend's ``SqlSeam`` gives
the placeholder, the time conversions, the table names and its connections)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import ClassVar

from mock_account.stores import workflow_records as contract
from mock_account.stores.sql.seam import SqlSeam


def _whose(account: str, identity: str | None) -> tuple[list[str], list[str]]:
    """The conditions (joined by AND) and parameters that pick an account's records, or only
    one identity's."""
    if identity is None:
        return ["account = ?"], [account]
    return ["account = ?", "identity = ?"], [account, identity]


class SqlWorkflowStore(SqlSeam, contract.WorkflowStore):
    """The SQL of SQLite and PostgreSQL; a backend's seam gives the dialect and connections."""

    TABLES: ClassVar[dict[str, str]] = {
        "progress": "workflow_progress",
        "actions": "actions",
        "outbox": "outbox",
    }

    def _progress(self, row: tuple) -> contract.ProgressRecord:
        return contract.ProgressRecord(
            row[0], row[1], row[2], int(row[3]), bytes(row[4]), self._from_time(row[5])
        )

    def _action(self, row: tuple) -> contract.ActionRecord:
        return contract.ActionRecord(
            row[0],
            row[1],
            row[2],
            row[3],
            bytes(row[4]),
            self._from_time(row[5]),
            self._from_time(row[6]),
        )

    def _outbox(self, row: tuple) -> contract.OutboxRecord:
        return contract.OutboxRecord(row[0], row[1], row[2], bytes(row[3]), self._from_time(row[4]))

    _PROGRESS = "account, identity, workflow, version, blob, updated"
    _ACTION = "account, action_id, identity, status, blob, created, updated"
    _OUTBOX = "account, action_id, identity, blob, delivered"

    def load_progress(
        self, account: str, identity: str, workflow: str
    ) -> contract.ProgressRecord | None:
        rows = self._query(
            self._sql(
                f"SELECT {self._PROGRESS} FROM {{progress}} "
                "WHERE account = ? AND identity = ? AND workflow = ?"
            ),
            (account, identity, workflow),
        )
        return self._progress(rows[0]) if rows else None

    def commit_progress(self, save: contract.ProgressSave) -> contract.ProgressRecord:
        account, identity, workflow = save.account, save.identity, save.workflow
        t = self._time(save.now)
        if save.expected_version == 0:
            sql = self._sql(
                "INSERT INTO {progress} VALUES (?, ?, ?, 1, ?, ?) "
                f"ON CONFLICT DO NOTHING RETURNING {self._PROGRESS}"
            )
            params: tuple = (account, identity, workflow, save.blob, t)
        else:
            sql = self._sql(
                "UPDATE {progress} SET version = version + 1, blob = ?, updated = ? "
                "WHERE account = ? AND identity = ? AND workflow = ? AND version = ? "
                f"RETURNING {self._PROGRESS}"
            )
            params = (save.blob, t, account, identity, workflow, save.expected_version)
        with self._tx() as tx:
            rows = tx(sql, params)
        if not rows:
            raise save.conflict()
        return self._progress(rows[0])

    def list_progress(self, account: str, identity: str) -> list[contract.ProgressRecord]:
        rows = self._query(
            self._sql(
                f"SELECT {self._PROGRESS} FROM {{progress}} WHERE account = ? AND identity = ? "
                "ORDER BY workflow"
            ),
            (account, identity),
        )
        return [self._progress(r) for r in rows]

    def add_action(
        self, account: str, action_id: str, identity: str, status: str, blob: bytes, now: datetime
    ) -> tuple[contract.ActionRecord, bool]:
        contract.check_names(account=account, action_id=action_id, identity=identity, status=status)
        t = self._time(now)
        with self._tx() as tx:
            rows = tx(
                self._sql(
                    "INSERT INTO {actions} VALUES (?, ?, ?, ?, ?, ?, ?) "
                    f"ON CONFLICT DO NOTHING RETURNING {self._ACTION}"
                ),
                (account, action_id, identity, status, bytes(blob), t, t),
            )
            if rows:
                return self._action(rows[0]), True
            rows = tx(
                self._sql(
                    f"SELECT {self._ACTION} FROM {{actions}} WHERE account = ? AND action_id = ?"
                ),
                (account, action_id),
            )
            return self._action(rows[0]), False

    def get_action(self, account: str, action_id: str) -> contract.ActionRecord | None:
        rows = self._query(
            self._sql(
                f"SELECT {self._ACTION} FROM {{actions}} WHERE account = ? AND action_id = ?"
            ),
            (account, action_id),
        )
        return self._action(rows[0]) if rows else None

    def commit_move(self, move: contract.ActionMove) -> contract.ActionRecord | None:
        marks = ", ".join("?" for _ in move.from_statuses)
        with self._tx() as tx:
            rows = tx(
                self._sql(
                    "UPDATE {actions} SET status = ?, updated = ?, blob = COALESCE(?, blob) "
                    f"WHERE account = ? AND action_id = ? AND status IN ({marks}) "
                    f"RETURNING {self._ACTION}"
                ),
                (
                    move.to_status,
                    self._time(move.now),
                    move.blob,
                    move.account,
                    move.action_id,
                    *move.from_statuses,
                ),
            )
        return self._action(rows[0]) if rows else None

    def list_actions(
        self, account: str, identity: str | None = None, statuses: Iterable[str] | None = None
    ) -> list[contract.ActionRecord]:
        where, params = _whose(account, identity)
        if statuses is not None:
            wanted = list(statuses)
            if not wanted:
                return []
            where.append(f"status IN ({', '.join('?' for _ in wanted)})")
            params.extend(wanted)
        rows = self._rows(
            f"SELECT {self._ACTION} FROM {{actions}} WHERE {' AND '.join(where)} "
            "ORDER BY created DESC, action_id DESC",
            tuple(params),
        )
        return [self._action(r) for r in rows]

    def deliver(
        self, account: str, action_id: str, identity: str, blob: bytes, now: datetime
    ) -> bool:
        contract.check_names(account=account, action_id=action_id, identity=identity)
        with self._tx() as tx:
            rows = tx(
                self._sql(
                    "INSERT INTO {outbox} VALUES (?, ?, ?, ?, ?) "
                    "ON CONFLICT DO NOTHING RETURNING action_id"
                ),
                (account, action_id, identity, bytes(blob), self._time(now)),
            )
        return bool(rows)

    def list_outbox(self, account: str, identity: str | None = None) -> list[contract.OutboxRecord]:
        where, params = _whose(account, identity)
        rows = self._rows(
            f"SELECT {self._OUTBOX} FROM {{outbox}} WHERE {' AND '.join(where)} "
            "ORDER BY delivered DESC, action_id DESC",
            tuple(params),
        )
        return [self._outbox(r) for r in rows]

    def all_progress(self) -> list[contract.ProgressRecord]:
        rows = self._query(self._sql(f"SELECT {self._PROGRESS} FROM {{progress}}"), ())
        return [self._progress(r) for r in rows]

    def all_actions(self) -> list[contract.ActionRecord]:
        rows = self._query(self._sql(f"SELECT {self._ACTION} FROM {{actions}}"), ())
        return [self._action(r) for r in rows]

    def all_outbox(self) -> list[contract.OutboxRecord]:
        rows = self._query(self._sql(f"SELECT {self._OUTBOX} FROM {{outbox}}"), ())
        return [self._outbox(r) for r in rows]

    def replace_outbox_blob(self, account: str, action_id: str, blob: bytes) -> bool:
        with self._tx() as tx:
            rows = tx(
                self._sql(
                    "UPDATE {outbox} SET blob = ? WHERE account = ? AND action_id = ? "
                    "RETURNING action_id"
                ),
                (bytes(blob), account, action_id),
            )
        return bool(rows)

    def forget_identity(self, account: str, identity: str) -> int:
        contract.check_names(account=account, identity=identity)
        removed = 0
        with self._tx() as tx:  # one transaction: all of the identity's records or none
            for table in ("progress", "actions", "outbox"):
                rows = tx(
                    self._sql(
                        f"DELETE FROM {{{table}}} WHERE account = ? AND identity = ? RETURNING 1"
                    ),
                    (account, identity),
                )
                removed += len(rows)
        return removed
