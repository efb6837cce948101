"""The mock account's users and their bearer tokens.

Users are generated from a seed (Faker), in two accounts so that isolation between
accounts can be shown: ``acme`` (the demo account, free plan) and ``globex``
(another company on the paid plan). A token is derived from the seed and the email
so that ``mock-account users`` can print it; the directory itself keeps only the
SHA-256 of each token and compares in constant time.
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass

from faker import Faker

ACCOUNTS = {"acme": "free", "globex": "paid"}
USERS_PER_ACCOUNT = {"acme": 4, "globex": 2}


@dataclass(frozen=True)
class User:
    email: str
    name: str
    account: str
    plan: str


@dataclass(frozen=True)
class IssuedToken:
    user: User
    token: str


def _token(seed: int, email: str) -> str:
    digest = hmac.new(f"mock-account-{seed}".encode(), email.encode(), hashlib.sha256).hexdigest()
    return f"s2o_{digest[:40]}"


def _hash(token: str) -> bytes:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).digest()


class UserDirectory:
    """Who may call the server, found by token hash."""

    def __init__(self, issued: list[IssuedToken]) -> None:
        self._by_hash = {_hash(t.token): t.user for t in issued}
        self._issued = issued
        self.users = [t.user for t in issued]

    @classmethod
    def generate(cls, seed: int = 7) -> UserDirectory:
        fake = Faker()
        fake.seed_instance(seed)
        issued = []
        for account, count in USERS_PER_ACCOUNT.items():
            for _ in range(count):
                first, last = fake.unique.first_name(), fake.unique.last_name()
                email = f"{first}.{last}@{account}.example".lower()
                user = User(email, f"{first} {last}", account, ACCOUNTS[account])
                issued.append(IssuedToken(user, _token(seed, email)))
        return cls(issued)

    def authenticate(self, token: str | None) -> User | None:
        if not token or len(token) > 256:
            return None
        wanted = _hash(token)
        for known, user in self._by_hash.items():
            if hmac.compare_digest(known, wanted):
                return user
        return None

    def by_email(self, email: str) -> User | None:
        return next((u for u in self.users if u.email == email), None)

    def tokens(self) -> list[IssuedToken]:
        """The issued tokens, for ``mock-account users`` and the demo's user switch."""
        return list(self._issued)
