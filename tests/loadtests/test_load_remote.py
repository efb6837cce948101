"""``loadtests run`` against a server of one's own: the remote gate, identities, planning, TLS.

No test sends traffic off this machine. A refused target is a name under ``.invalid`` (it never
resolves), refused before any name is looked up; the runs that pass the gate go to servers on a
second loopback address (127.0.0.2), started here, one plain and one with a self-signed TLS
certificate. Locust is never imported into the test process (it patches the standard library).
"""

from __future__ import annotations

import csv
import datetime
import ipaddress
import json
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import yaml
from missing import missing

from loadtests.cli import main
from loadtests.identities import TOKEN_ENV, TOKENS_FILE_ENV, bearer_tokens, redact, token_for
from loadtests.server import ServerProcess, free_port, stop_process
from loadtests.summary import agent_runs
from loadtests.target import Target, is_loopback, parse_target, without_credentials
from mock_account.users import UserDirectory

SECOND_LOOPBACK = "127.0.0.2"
TIMEOUT_S = 400
ACCOUNT = Path(__file__).resolve().parents[2] / "agents_catalog" / "account"
# The planning folder: two agents as the account has them, and the hotel agent under a name the
# target lacks, so its examples are searched and answered by the target's own BookHotelStay.
KEPT = ("BookBusinessFlight", "SubmitExpenseClaim")
RENAMED = ("BookHotelStay", "PlanTeamHotelStay")
URL_PASSWORD = "url-pass-8271"


def second_loopback() -> str:
    """127.0.0.2 where it can be bound (every Linux); else skip, or fail under CI=true."""
    try:
        free_port(SECOND_LOOPBACK)
    except OSError as exc:
        missing(f"cannot listen on {SECOND_LOOPBACK}: {exc}")
    return SECOND_LOOPBACK


def run_cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "loadtests.cli", "run", *args],
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
        env={**os.environ, **(env or {})},
    )


def short_run(out: Path, *extra: str) -> list[str]:
    return [
        *("--users", "1", "--spawn-rate", "1", "--run-time", "2s", "--think", "0.05-0.2"),
        *("--out", str(out), *extra),
    ]


def run_in_process(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    try:
        code = main(["run", *argv])
    except SystemExit as exc:
        code = int(exc.code or 0)
    return code, capsys.readouterr().err


@pytest.fixture
def lookups(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names this process asks a resolver for; none resolves (no DNS is needed)."""
    asked: list[str] = []

    def refuse(host: str, *args: object, **kwargs: object) -> list[object]:
        asked.append(host)
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    monkeypatch.setattr(socket, "getaddrinfo", refuse)
    return asked


# -- the gate: refused before anything is sent ---------------------------------------------------


def test_a_remote_host_is_refused_without_allow_remote_before_any_request(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], lookups: list[str]
) -> None:
    out = tmp_path / "out"
    code, err = run_in_process(short_run(out, "--host", "https://staging.invalid"), capsys)
    assert code == 2
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "https://staging.invalid is not this machine" in err and "--allow-remote" in err
    assert lookups == []  # not even its name was looked up
    assert not out.exists()  # nothing written


def test_allow_remote_passes_the_gate_and_an_unreachable_target_stops_before_the_load(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], lookups: list[str]
) -> None:
    out = tmp_path / "out"
    argv = short_run(out, "--host", "http://staging.invalid:9020", "--allow-remote")
    code, err = run_in_process(argv, capsys)
    assert code == 1 and "Traceback" not in err
    assert "cannot reach http://staging.invalid:9020" in err
    assert "plain http to another machine" in err  # the tokens would cross unencrypted
    assert lookups and set(lookups) == {"staging.invalid"}
    assert not (out / "locust.log").exists()  # no Locust process started


@pytest.mark.parametrize(
    "host, message",
    [
        ("ftp://staging.invalid", "must be an http:// or https:// URL"),
        (f"loader:{URL_PASSWORD}@staging.invalid", "must be an http:// or https:// URL"),
        ("http://staging.invalid:99999", "Port out of range"),
        ("http://staging.invalid/?token=1", "no ?query or #fragment"),
    ],
)
def test_a_bad_host_is_one_line_that_never_shows_a_password(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], host: str, message: str
) -> None:
    code, err = run_in_process(short_run(tmp_path / "out", "--host", host), capsys)
    assert code == 2 and message in err and err.count("\n") == 1
    assert URL_PASSWORD not in err


@pytest.mark.parametrize(
    "lines, message",
    [
        (None, "cannot read the tokens file"),
        (["# nobody", ""], "no token in it"),
        (["s2o_fine", "s2o_two halves"], "line 2: a token has no spaces in it"),
    ],
)
def test_an_unusable_tokens_file_is_refused_without_quoting_a_token(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], lines: list[str] | None, message: str
) -> None:
    tokens = tmp_path / "tokens.txt"
    if lines is not None:
        tokens.write_text("\n".join(lines) + "\n")
    code, err = run_in_process(short_run(tmp_path / "out", "--tokens", str(tokens)), capsys)
    assert code == 2 and message in err and "Traceback" not in err
    assert "s2o_" not in err and "halves" not in err
    assert not (tmp_path / "out").exists()


def test_an_agent_folder_without_agents_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "empty").mkdir()
    for folder, message in (
        (tmp_path / "empty", "no agent files found"),
        (tmp_path / "missing", "not a folder of agent files"),
    ):
        code, err = run_in_process(short_run(tmp_path / "out", "--agents", str(folder)), capsys)
        assert code == 2 and message in err and "Traceback" not in err


# -- the pieces ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "host, loopback",
    [
        ("127.0.0.1", True),
        ("127.0.0.2", True),
        ("::1", True),
        ("localhost", True),
        ("LocalHost", True),
        ("staging.invalid", False),
        ("localhost.invalid", False),
    ],
)
def test_this_machine_is_known_by_its_address_alone(host: str, loopback: bool) -> None:
    assert is_loopback(host) is loopback


def test_a_target_keeps_no_credentials() -> None:
    target = parse_target(f"https://loader:{URL_PASSWORD}@[::1]:8443/agents/", allow_remote=False)
    assert target == Target(url="https://[::1]:8443/agents", loopback=True, had_credentials=True)
    assert target.tls
    remote = parse_target("http://staging.invalid:9020", allow_remote=True)
    assert (remote.loopback, remote.had_credentials, remote.tls) == (False, False, False)
    assert without_credentials("postgresql://app:pw@db.invalid/test") == (
        "postgresql://db.invalid/test"
    )
    assert without_credentials("sqlite:///tmp/x.db") == "sqlite:///tmp/x.db"


def test_tokens_are_taken_in_turn_and_redacted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tokens = tmp_path / "tokens.txt"
    tokens.write_text("# staging\n  s2o_first  \n\ns2o_second\ns2o_third\n")
    monkeypatch.setenv(TOKENS_FILE_ENV, str(tokens))
    monkeypatch.setenv(TOKEN_ENV, "s2o_single")  # the file wins
    bearer_tokens.cache_clear()
    try:
        assert [token_for(n) for n in range(5)] == [
            "s2o_first",
            "s2o_second",
            "s2o_third",
            "s2o_first",
            "s2o_second",
        ]
        echoed = "HTTP 401: unknown token s2o_second (s2o_third?)"
        assert redact(echoed) == "HTTP 401: unknown token [token] ([token]?)"
        monkeypatch.delenv(TOKENS_FILE_ENV)
        bearer_tokens.cache_clear()
        assert bearer_tokens() == ("s2o_single",)
    finally:
        bearer_tokens.cache_clear()


def test_agent_runs_outside_the_folder_are_counted_under_their_own_names(tmp_path: Path) -> None:
    runs = tmp_path / "agent_runs.json"
    runs.write_text(json.dumps({"BookBusinessFlight": 4, "BookHotelStay": 6, "TrackFlight": 1}))
    folder = frozenset({"BookBusinessFlight", "PlanTeamHotelStay"})
    summary = agent_runs(tmp_path, folder, runs)
    assert summary == {
        "folder": str(tmp_path),
        "in_folder": 2,
        "runs": {"BookHotelStay": 6, "BookBusinessFlight": 4, "TrackFlight": 1},
        "outside_folder": {"BookHotelStay": 6, "TrackFlight": 1},
    }
    assert agent_runs(tmp_path, folder, tmp_path / "none.json")["runs"] == {}


# -- a real run against a second server ----------------------------------------------------------


@pytest.fixture(scope="module")
def second_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    host = second_loopback()
    folder = tmp_path_factory.mktemp("second-server")
    args = ["--store", "memory://", "--log-level", "warning"]
    with ServerProcess(
        args,
        host=host,
        startup_s=180,
        log_path=folder / "server.log",
        env={"MOCK_ACCOUNT_DATA": str(folder / "data")},
    ) as server:
        yield server


def planning_folder(folder: Path) -> set[str]:
    """The folder of three agents; the example requests it plans from."""
    folder.mkdir()
    for name in KEPT:
        shutil.copy(ACCOUNT / f"{name}.yaml", folder / f"{name}.yaml")
    source, renamed = RENAMED
    agent = yaml.safe_load((ACCOUNT / f"{source}.yaml").read_text())
    agent["name"] = renamed
    (folder / f"{renamed}.yaml").write_text(yaml.safe_dump(agent, sort_keys=False))
    return {
        example
        for path in folder.glob("*.yaml")
        for example in yaml.safe_load(path.read_text())["examples"]
    }


def titles_of(server: ServerProcess, token: str) -> list[str]:
    titles, cursor = [], None
    while True:
        body = {"limit": 25, **({"nextCursor": cursor} if cursor else {})}
        reply = httpx.post(
            f"{server.url}/api/user/getUnpinnedConversations",
            json=body,
            headers={"Authorization": f"Bearer {token}"},
            timeout=30,
        )
        assert reply.status_code == 200, reply.text
        data = reply.json()
        titles += [item["title"] for item in data["unpinnedConversations"]]
        if not (cursor := data["nextCursor"]):
            return titles


@pytest.mark.slow
def test_a_run_against_a_second_server_spreads_tokens_and_plans_from_the_agent_folder(
    tmp_path: Path, second_server: ServerProcess
) -> None:
    issued = [t.token for t in UserDirectory.generate(7).tokens()]
    bystander, tokens = issued[0], issued[1:4]  # the default user, and three others
    token_file = tmp_path / "tokens.txt"
    token_file.write_text("# three users of the target account\n\n" + "\n".join(tokens) + "\n")
    examples = planning_folder(tmp_path / "agents")
    out = tmp_path / "out"
    url = f"http://loader:{URL_PASSWORD}@{second_server.host}:{second_server.port}/"
    done = run_cli(
        *("--host", url, "--allow-remote", "--tokens", str(token_file)),
        *("--agents", str(tmp_path / "agents"), "--workers", "2", "--users", "4"),
        *("--spawn-rate", "4", "--run-time", "4s", "--think", "0.05-0.2", "--out", str(out)),
        # Titles stay the first requests (no renames), and every conversation stays listed.
        env={"LOADTEST_WEIGHT_RENAME": "0", "LOADTEST_WEIGHT_DELETE": "0"},
    )
    assert done.returncode == 0, done.stderr
    summary = json.loads((out / "summary.json").read_text())

    # What was measured: the target without its credentials, what it said, the options.
    target = second_server.url
    assert summary["target"] == {
        "url": target,
        "embedded": False,
        "loopback": True,
        "tls_verified": None,
        "server": "uvicorn",
        "title": "Mock agent server (Search2o-compatible)",
        "version": "1.0.0",
        "store": "memory",
        "agents": 200,
    }
    configuration = summary["configuration"]
    assert configuration["host"] == target and configuration["allow_remote"] is True
    assert configuration["tokens"] == str(token_file) and configuration["token_count"] == 3
    assert configuration["agents"] == str(tmp_path / "agents")
    assert f"target: {target} (server uvicorn;" in done.stdout
    assert "user:password in --host is not sent" in done.stderr
    assert summary["totals"]["failures"] == 0 and summary["totals"]["requests"] > 0

    # Four users over two worker processes took the three tokens in turn: every one of those
    # users has conversations on the target, and the default user none.
    for token in tokens:
        titles = titles_of(second_server, token)
        assert titles
        # Every journey started from an example of the planning folder.
        assert set(titles) <= examples
    assert titles_of(second_server, bystander) == []

    # The hotel agent's requests ran as the target's BookHotelStay: counted under that name,
    # apart, and not as a failure.
    agents = summary["agents"]
    assert agents["folder"] == str(tmp_path / "agents") and agents["in_folder"] == 3
    assert agents["outside_folder"].get("BookHotelStay", 0) > 0
    assert set(agents["outside_folder"]) == set(agents["runs"]) - {*KEPT, RENAMED[1]}
    assert "not in that folder: " in done.stdout and "BookHotelStay" in done.stdout

    # No token, and not the URL's password, in the output, the reports or the logs.
    written = [path for path in out.rglob("*") if path.is_file()]
    assert {"summary.json", "report.html", "locust.log", "locust-worker-1.log"} <= {
        path.name for path in written
    }
    for secret in (*tokens, URL_PASSWORD):
        assert secret not in done.stdout and secret not in done.stderr
        for path in [*written, second_server.log_path]:
            assert secret.encode() not in path.read_bytes(), path.name


# -- TLS: verified by default, --insecure with a warning -----------------------------------------


def self_signed(folder: Path, host: str) -> tuple[Path, Path]:
    """A certificate for ``host`` that only itself vouches for, and its key."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "load test target")])
    now = datetime.datetime.now(datetime.UTC)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(hours=1))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(
            x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address(host))]),
            critical=False,
        )
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_path, key_path = folder / "cert.pem", folder / "key.pem"
    cert_path.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return cert_path, key_path


@pytest.fixture(scope="module")
def tls_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """The agent server behind uvicorn's own TLS on 127.0.0.2: ``(url, certificate)``."""
    host = second_loopback()
    folder = tmp_path_factory.mktemp("tls-server")
    cert, key = self_signed(folder, host)
    port = free_port(host)
    command = [
        *(sys.executable, "-m", "uvicorn", "--factory"),
        "mock_account.api.environment:create_app_from_environment",
        *("--host", host, "--port", str(port), "--log-level", "warning"),
        *("--ssl-certfile", str(cert), "--ssl-keyfile", str(key)),
    ]
    env = {**os.environ, "MOCK_ACCOUNT_STORE": "memory://", "MOCK_ACCOUNT_DATA": str(folder)}
    url = f"https://{host}:{port}"
    with (folder / "server.log").open("wb") as log:
        process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env)
    try:
        deadline = time.monotonic() + 180
        while not _answers(url):
            if process.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"the TLS server did not start:\n{(folder / 'server.log').read_text()}")
            time.sleep(0.1)
        yield url, cert
    finally:
        stop_process(process)


def _answers(url: str) -> bool:
    try:
        return httpx.get(f"{url}/health", verify=False, timeout=1).status_code == 200
    except httpx.TransportError:
        return False


@pytest.mark.slow
def test_tls_is_verified_by_default_and_insecure_says_it_is_not(
    tmp_path: Path, tls_server: tuple[str, Path]
) -> None:
    url, cert = tls_server
    untrusted = {"SSL_CERT_FILE": str(tmp_path / "no-such-ca.pem")}  # no CA of ours

    # Its certificate vouches for itself only: refused, one line, before the load.
    refused = run_cli(*short_run(tmp_path / "refused", "--host", url), env=untrusted)
    assert refused.returncode == 1 and "Traceback" not in refused.stderr
    assert f"the TLS certificate of {url} does not verify" in refused.stderr
    assert "--insecure" in refused.stderr
    assert not (tmp_path / "refused" / "locust.log").exists()

    # --insecure: the run goes ahead, and the output says the certificate was not verified.
    out = tmp_path / "insecure"
    insecure = run_cli(*short_run(out, "--host", url, "--insecure"), env=untrusted)
    assert insecure.returncode == 0, insecure.stderr
    assert f"warning: --insecure: the TLS certificate of {url} is not verified" in insecure.stderr
    assert "TLS not verified" in insecure.stdout
    summary = json.loads((out / "summary.json").read_text())
    assert summary["target"]["tls_verified"] is False and summary["configuration"]["insecure"]
    assert summary["totals"]["requests"] > 0 and summary["totals"]["failures"] == 0

    # Trusted (its certificate as the CA), it is verified, by the probe and the users alike.
    out = tmp_path / "trusted"
    trusted = run_cli(*short_run(out, "--host", url), env={"SSL_CERT_FILE": str(cert)})
    assert trusted.returncode == 0, trusted.stderr
    assert "--insecure" not in trusted.stderr
    summary = json.loads((out / "summary.json").read_text())
    assert summary["target"]["tls_verified"] is True
    assert summary["totals"]["requests"] > 0 and summary["totals"]["failures"] == 0


@pytest.mark.slow
def test_the_locust_users_verify_certificates_on_their_own(
    tmp_path: Path, tls_server: tuple[str, Path]
) -> None:
    """Locust's HTTP client does not verify by default; the users do, run without the runner."""
    url, _ = tls_server
    locustfile = Path(__file__).resolve().parents[2] / "loadtests" / "conversation_user.py"
    done = subprocess.run(
        [
            *(sys.executable, "-m", "locust", "-f", str(locustfile), "--headless"),
            *("-u", "1", "-r", "1", "-t", "2s", "--host", url, "--stop-timeout", "2"),
            *("--csv", str(tmp_path / "locust"), "--only-summary", "--loglevel", "WARNING"),
        ],
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
        env={
            **os.environ,
            "SSL_CERT_FILE": str(tmp_path / "no-such-ca.pem"),
            "LOADTEST_THINK_MIN": "0.05",
            "LOADTEST_THINK_MAX": "0.2",
        },
    )
    failures = (tmp_path / "locust_failures.csv").read_text()
    assert "CERTIFICATE_VERIFY_FAILED" in failures, done.stderr
    with open(tmp_path / "locust_stats.csv", newline="") as handle:
        aggregated = next(row for row in csv.DictReader(handle) if row["Name"] == "Aggregated")
    assert int(aggregated["Request Count"]) == int(aggregated["Failure Count"]) > 0
