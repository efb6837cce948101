"""Every byte a store holds, as stored: what an attacker with the database would read."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit


def _split(url: str, option: str) -> tuple[str, str]:
    parts = urlsplit(url)
    query = dict(parse_qsl(parts.query))
    value = query.pop(option, "")
    query.pop("batch", None)
    return urlunsplit(parts._replace(query=urlencode(query))), value


def raw_dump(url: str) -> bytes | None:
    """The raw bytes of a SQLite file, a PostgreSQL schema or a Redis prefix (memory: None)."""
    if url.startswith("sqlite:///"):
        folder = Path(url.removeprefix("sqlite:///").split("?")[0]).parent
        return b"".join(p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file())
    if url.startswith("postgresql://"):
        import psycopg
        from psycopg import sql

        conninfo, schema = _split(url, "schema")
        chunks: list[bytes] = []
        with psycopg.connect(conninfo) as conn:
            tables = conn.execute(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = %s",
                (schema,),
            ).fetchall()
            for (table,) in tables:
                rows = conn.execute(
                    sql.SQL("SELECT * FROM {}.{}").format(
                        sql.Identifier(schema), sql.Identifier(table)
                    )
                ).fetchall()
                for row in rows:
                    for value in row:
                        chunks.append(value if isinstance(value, bytes) else str(value).encode())
        return b"\n".join(chunks)
    if url.startswith("redis://"):
        import redis

        client_url, prefix = _split(url, "prefix")
        client = redis.Redis.from_url(client_url)
        chunks = []
        try:
            for key in client.scan_iter(match=f"{prefix}:*", count=500):
                chunks.append(key)
                kind = client.type(key)
                if kind == b"string":
                    chunks.append(client.get(key) or b"")
                elif kind == b"hash":
                    for field, value in client.hgetall(key).items():
                        chunks += [field, value]
                elif kind == b"list":
                    chunks += client.lrange(key, 0, -1)
                elif kind == b"set":
                    chunks += list(client.smembers(key))
                elif kind == b"zset":
                    chunks += client.zrange(key, 0, -1)
        finally:
            client.close()
        return b"\n".join(chunks)
    return None
