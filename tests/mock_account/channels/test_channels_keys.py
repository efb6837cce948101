"""Identity hashes and channel records across key rotation, and user.x without an identity."""

from __future__ import annotations

import pytest

from mock_account.channels import ChannelSealer
from mock_account.crypto import InvalidRecord, Keyring, StateCipher
from mock_account.deployment import Deployment


@pytest.fixture
def store_url() -> str:
    return "memory://"


def test_rotating_the_key_keeps_identities_and_their_records() -> None:
    keyring = Keyring.generate()
    before = ChannelSealer(StateCipher(keyring))
    after = ChannelSealer(StateCipher(keyring.rotated()))
    identity = before.identity_id("acme", "email", "ada@example.com")
    assert after.identity_id("acme", "email", "ada@example.com") == identity
    sealed = before.seal_text("ada@example.com", account="acme", identity=identity,
                              purpose="identity")  # fmt: skip
    assert after.open_text(sealed, account="acme", identity=identity, purpose="identity") == (
        "ada@example.com"
    )
    # Another account's key gives other ids: an id says nothing across accounts.
    other = ChannelSealer(StateCipher(Keyring.generate()))
    assert other.identity_id("acme", "email", "ada@example.com") != identity


def test_ids_differ_by_account_channel_and_sender() -> None:
    sealer = ChannelSealer(StateCipher(Keyring.generate()))
    ids = {
        sealer.identity_id(account, channel, sender)
        for account in ("acme", "globex")
        for channel in ("email", "web")
        for sender in ("ada@example.com", "bo@example.com")
    }
    assert len(ids) == 8 and all(len(i) == 32 for i in ids)


def test_a_record_opens_only_for_its_purpose_and_identity() -> None:
    sealer = ChannelSealer(StateCipher(Keyring.generate()))
    sealed = sealer.seal_text("Ada", account="acme", identity="a" * 32, purpose="contact")
    for account, identity, purpose in (
        ("acme", "a" * 32, "identity"),
        ("acme", "b" * 32, "contact"),
        ("globex", "a" * 32, "contact"),
    ):
        with pytest.raises(InvalidRecord):
            sealer.open_text(sealed, account=account, identity=identity, purpose=purpose)


def test_without_an_identity_user_facts_live_only_for_the_run(deployment: Deployment) -> None:
    member = deployment.users.users[1]
    account = deployment.account
    first = account.exec_agent(
        member, "RememberMyName", {"query": "remember my name", "name": "Bo"}
    )
    assert first.success and first.parts[0]["text"].startswith("I will remember that you are Bo")
    assert first.memory == {"name": "Bo"} and first.memory_writes == ["name"]
    again = account.exec_agent(member, "GreetMe", {"query": "greet me"}, first.convid)
    assert again.parts[0]["text"] == "Hello, I do not know your name yet (on )."
    state = account.restore(member, first.convid).state
    assert "user" not in state and "name" not in state["conv"]


def test_reencrypt_puts_every_channel_record_under_the_new_key(
    make_deployment, tmp_path, capsys: pytest.CaptureFixture[str]
) -> None:
    from mock_account.cli.commands import main
    from mock_account.crypto import load_keyring_file, record_key_id

    url = f"sqlite:///{tmp_path / 'rotate' / 'conversations.db'}"
    built = make_deployment(url)
    admin = built.users.users[0]
    first = built.channels.deliver(
        admin,
        channel="email",
        sender="ada@example.com",
        query="please remember that my name is Ada",
        inputs={"name": "Ada"},
        contact="Ada Lovelace",
    )
    built.channels.deliver(
        admin, channel="email", sender="ada@example.com", query="where is my parcel"
    )
    built.close()
    data = ["--data-dir", str(tmp_path)]
    assert main(["keys", "rotate", *data]) == 0
    assert main(["keys", "reencrypt", "--store", url, *data]) == 0
    out = capsys.readouterr().out
    assert "channel records re-encrypted: 5" in out  # sender, contact, memory, two turns
    new_key = load_keyring_file(tmp_path / "keyring.json").current_key_id()
    after = make_deployment(url)
    records = after.channels.records
    stored = records.get_identity(admin.account, first.identity)
    turns = records.turns(admin.account, first.result.convid)
    blobs = [stored.sender, stored.contact, stored.memory, *(t.record for t in turns)]
    assert {record_key_id(b) for b in blobs} == {new_key}
    assert after.channels.identity(admin, first.identity)["memory"] == {"name": "Ada"}
    again = after.channels.deliver(
        admin, channel="email", sender="ada@example.com", query="greet me by my name please"
    )
    assert again.resumed and again.result.parts[0]["text"].startswith("Hello again Ada")
    after.close()
    assert main(["keys", "reencrypt", "--store", url, *data]) == 0
    assert "channel records re-encrypted: 0" in capsys.readouterr().out
    assert main(["keys", "status", "--store", url, *data]) == 0
    # sender, contact, memory and three turns now (the greeting added one)
    assert f"{new_key} (current): 6 channel records" in capsys.readouterr().out
