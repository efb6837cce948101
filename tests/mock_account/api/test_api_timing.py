"""``Server-Timing``: written by the server, read back by every client in milliseconds."""

from __future__ import annotations

from mock_account.api.timing import parse_server_timing, server_timing


def test_what_the_server_writes_is_read_back_in_milliseconds() -> None:
    header = server_timing({"restore": 0.000123, "run": 0.00456, "encrypt": 0.00005})
    assert header == "restore;dur=0.123, run;dur=4.560, encrypt;dur=0.050"
    assert parse_server_timing(header) == {"restore": 0.123, "run": 4.56, "encrypt": 0.05}


def test_phases_go_out_in_their_order_then_the_total() -> None:
    timings = {"total": 0.01, "write": 0.003, "restore": 0.001, "serialize": 0.002, "other": 1}
    header = server_timing(timings)
    assert header == "restore;dur=1.000, serialize;dur=2.000, write;dur=3.000, total;dur=10.000"


def test_entries_without_a_valid_duration_are_skipped() -> None:
    header = 'restore;dur=0.25, run;desc="agent";dur=12.5, save;dur=bad, x, db;DUR="1.5"'
    assert parse_server_timing(header) == {"restore": 0.25, "run": 12.5, "db": 1.5}
    assert parse_server_timing("cache;desc=hit, db;dur=oops") == {}
    assert parse_server_timing("") == parse_server_timing(None) == {}
