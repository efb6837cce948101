"""Sentence embeddings: unit vectors, meaning, and the on-disk vector cache."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from mock_account.search import embeddings
from mock_account.search.embeddings import (
    DIMENSIONS,
    EmbeddingError,
    SentenceEncoder,
    _model_file,
    _tokenizer_file,
    default_encoder,
)


def test_vectors_have_unit_length() -> None:
    vectors = default_encoder().encode(["reset my password", "book a train ticket"])
    assert vectors.shape == (2, DIMENSIONS)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-4)
    assert default_encoder().encode([]).shape == (0, DIMENSIONS)


def test_close_meanings_have_close_vectors() -> None:
    request, paraphrase, other = default_encoder().encode(
        ["I forgot my password", "I can't log in, my account is locked", "book a hotel in Rome"]
    )
    assert request @ paraphrase > request @ other + 0.2


def test_kept_vectors_are_cached_on_disk_and_reused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = tmp_path / "data" / "vectors.npz"
    first = SentenceEncoder(_model_file(), _tokenizer_file(), cache)
    kept = first.encode(["order office chairs"], keep=True)
    first.encode(["a request that is not kept"])
    assert cache.is_file()

    second = SentenceEncoder(_model_file(), _tokenizer_file(), cache)

    def no_model(texts: list[str]) -> np.ndarray:
        raise AssertionError(f"embedded again: {texts}")

    monkeypatch.setattr(second, "_run", no_model)
    assert np.array_equal(second.encode(["order office chairs"]), kept)
    with pytest.raises(AssertionError, match="not kept"):
        second.encode(["a request that is not kept"])


def test_recent_requests_run_no_model_and_stay_bounded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    encoder = SentenceEncoder(_model_file(), _tokenizer_file(), tmp_path / "vectors.npz")
    runs: list[str] = []
    real_run = encoder._run

    def counting(texts: list[str]) -> np.ndarray:
        runs.extend(texts)
        return real_run(texts)

    monkeypatch.setattr(encoder, "_run", counting)
    monkeypatch.setattr(embeddings, "RECENT_REQUESTS", 2)
    first = encoder.encode(["book a hotel in Rome"])
    assert np.array_equal(encoder.encode(["book a hotel in Rome"]), first)
    assert runs == ["book a hotel in Rome"]
    encoder.encode(["order office chairs", "reset my password"])  # pushes the oldest out
    encoder.encode(["book a hotel in Rome"])
    assert runs == [
        "book a hotel in Rome",
        "order office chairs",
        "reset my password",
        "book a hotel in Rome",
    ]
    assert len(encoder._recent) == 2
    assert not (tmp_path / "vectors.npz").exists()  # requests never reach the disk


def test_a_damaged_cache_is_ignored(tmp_path: Path) -> None:
    cache = tmp_path / "vectors.npz"
    cache.write_bytes(b"not a numpy file")
    encoder = SentenceEncoder(_model_file(), _tokenizer_file(), cache)
    assert encoder.encode(["order office chairs"], keep=True).shape == (1, DIMENSIONS)
    # Replaced by a good one.
    again = SentenceEncoder(_model_file(), _tokenizer_file(), cache)
    assert "order office chairs" in again._known


def test_a_missing_model_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(EmbeddingError, match="cannot load the search model"):
        SentenceEncoder(tmp_path / "absent.onnx", _tokenizer_file())
