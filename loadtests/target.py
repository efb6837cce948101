"""The server a run measures: its URL, whether it is this machine, and what it says of itself.

``--host`` takes any http(s) URL. A host that is not this machine (a loopback address or
``localhost``) is load-tested only with ``allow_remote``: the check reads the URL alone, so a
refused target is refused before any name is looked up or any request is sent. Credentials in
the URL (``user:password@``) are never sent (the API authenticates with bearer tokens) nor
written anywhere: :attr:`Target.url` is the URL without them.

:func:`describe` asks the target what it is before the load starts (``GET /health`` and
``GET /openapi.json``, neither with a token): its ``Server`` header, the title and version of the
API it publishes, and the store and agent count an agent server of this project reports. An
unreachable target, or one whose TLS certificate does not verify, fails there with one line
instead of a run full of failures.
"""

from __future__ import annotations

import ipaddress
import ssl
from dataclasses import dataclass
from typing import Any
from urllib.parse import SplitResult, urlsplit

import httpx

PROBE_TIMEOUT_S = 10.0


class TargetError(ValueError):
    """The target cannot be load-tested: a bad or refused URL, or a server that does not answer."""


def without_credentials(url: str) -> str:
    """``url`` without its ``user:password@`` part (the rest untouched)."""
    parts = urlsplit(url)
    if "@" not in parts.netloc:
        return url
    return parts._replace(netloc=parts.netloc.rpartition("@")[2]).geturl()


def is_loopback(hostname: str) -> bool:
    """Whether ``hostname`` names this machine without asking a resolver: 127.0.0.0/8, ::1, or
    ``localhost``."""
    if hostname.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(hostname).is_loopback
    except ValueError:
        return False


@dataclass(frozen=True)
class Target:
    """A server to load-test: ``url`` has no credentials and no trailing slash."""

    url: str
    loopback: bool
    had_credentials: bool

    @property
    def tls(self) -> bool:
        return self.url.startswith("https://")


def _split(text: str) -> SplitResult:
    parts = urlsplit(text.strip())
    shown = without_credentials(text.strip())
    if "@" in shown:  # not a URL this module can split: what comes before an @ is kept out
        shown = "…@" + shown.rpartition("@")[2]
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise TargetError(f"--host must be an http:// or https:// URL, got {shown!r}")
    if parts.query or parts.fragment:
        raise TargetError(f"--host takes a base URL, with no ?query or #fragment: {shown}")
    try:
        parts.port  # noqa: B018 (it raises on a port out of range)
    except ValueError as exc:
        raise TargetError(f"--host {shown}: {exc}") from exc
    return parts


def parse_target(text: str, *, allow_remote: bool) -> Target:
    """The target of ``--host text``; a host other than this machine needs ``allow_remote``."""
    parts = _split(text)
    url = without_credentials(parts.geturl()).rstrip("/")
    loopback = is_loopback(parts.hostname or "")
    if not loopback and not allow_remote:
        raise TargetError(
            f"--host {url} is not this machine: add --allow-remote to load-test a server "
            "elsewhere (one you may load)"
        )
    return Target(url=url, loopback=loopback, had_credentials="@" in parts.netloc)


def _json(response: httpx.Response) -> dict[str, Any]:
    if response.status_code != 200:
        return {}
    try:
        data = response.json()
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _tls_failure(exc: BaseException) -> ssl.SSLCertVerificationError | None:
    seen: BaseException | None = exc
    while seen is not None:
        if isinstance(seen, ssl.SSLCertVerificationError):
            return seen
        seen = seen.__cause__ or seen.__context__
    return None


def describe(url: str, *, verify: bool = True) -> dict[str, Any]:
    """What the server at ``url`` says of itself: ``server`` (its ``Server`` header), ``title``
    and ``version`` (of its OpenAPI document), ``store`` and ``agents`` (from ``/health``); each
    ``None`` where it does not answer one.

    Certificates are checked against the system's trust store (``SSL_CERT_FILE`` adds a CA), as
    the Locust users check them; ``verify=False`` checks nothing.
    """
    context = ssl.create_default_context() if verify else False
    try:
        with httpx.Client(verify=context, timeout=PROBE_TIMEOUT_S) as client:
            health = client.get(f"{url}/health")
            openapi = client.get(f"{url}/openapi.json")
    except httpx.TransportError as exc:
        failure = _tls_failure(exc)
        if failure is not None:
            raise TargetError(
                f"the TLS certificate of {url} does not verify ({failure.verify_message}): "
                "trust its CA with SSL_CERT_FILE, or skip the check with --insecure"
            ) from exc
        raise TargetError(f"cannot reach {url}: {exc or exc.__class__.__name__}") from exc
    status, info = _json(health), _json(openapi).get("info") or {}
    count = status.get("agents")
    return {
        "server": health.headers.get("server") or openapi.headers.get("server"),
        "title": _text(info.get("title")),
        "version": _text(info.get("version")),
        "store": _text(status.get("store")),
        "agents": count if isinstance(count, int) else None,
    }
