"""A minimal client of the Search2o agent server, written the way the public client works.

Standard library only, nothing from this project: ``Authorization: Bearer <token>``, JSON bodies
to ``/api/exec/search``, ``/api/exec/execAgent`` and ``/api/user/...``. It prints the JSON answer;
on any status other than 200 it prints ``error.message`` to stderr and exits 1.

    python reference_client.py URL TOKEN search "I need to fly to Berlin next week"
    python reference_client.py URL TOKEN exec BookTrip --query "..." [--convid C] [--input k=v]
    python reference_client.py URL TOKEN user getPinnedConversations '{}'
"""

from __future__ import annotations

import argparse
import json
import sys
import urllib.error
import urllib.request
from typing import Any


def post(url: str, token: str, path: str, body: dict[str, Any]) -> tuple[int, Any]:
    request = urllib.request.Request(
        url.rstrip("/") + path,
        data=json.dumps(body).encode("utf-8"),
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as refused:
        try:
            return refused.code, json.loads(refused.read())
        except ValueError:
            return refused.code, None


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="reference_client")
    parser.add_argument("url")
    parser.add_argument("token")
    commands = parser.add_subparsers(dest="command", required=True)
    search = commands.add_parser("search")
    search.add_argument("query")
    search.add_argument("--tag")
    run = commands.add_parser("exec")
    run.add_argument("agent")
    run.add_argument("--query")
    run.add_argument("--convid")
    run.add_argument("--input", action="append", default=[], metavar="NAME=VALUE")
    user = commands.add_parser("user")
    user.add_argument("endpoint")
    user.add_argument("body", nargs="?", default="{}")
    args = parser.parse_args(argv)

    if args.command == "search":
        path, body = "/api/exec/search", {"query": args.query, "tag": args.tag}
    elif args.command == "exec":
        inputs: dict[str, Any] = dict(item.split("=", 1) for item in args.input)
        if args.query is not None:
            inputs["query"] = args.query
        path = "/api/exec/execAgent"
        body = {"agentName": args.agent, "convid": args.convid, "inputs": inputs}
    else:
        path, body = f"/api/user/{args.endpoint}", json.loads(args.body)
    status, answer = post(args.url, args.token, path, body)
    if status != 200:
        error = answer.get("error") if isinstance(answer, dict) else None
        message = error.get("message") if isinstance(error, dict) else f"HTTP {status}"
        print(f"Error: {message}", file=sys.stderr)
        return 1
    print(json.dumps(answer))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
