"""Agent functions compiled to flat instruction lists.

``if`` and ``for`` become jumps, so the position in a function is one integer and a run
paused on ``ask`` can be saved as plain JSON (a stack of ``{function, pc, locals}``) and
resumed exactly where it stopped.

    ("cmd", args)                       run one command (prompt, llm, var, data, ...)
    ("jump", target)                    continue at target
    ("jump_unless", [condition, target]) continue at target unless the condition holds
    ("for_init", (each, slot))          start a loop over the list at `each`
    ("for_next", [slot, as, end])       bind the next item to `as`, or leave the loop
"""

from __future__ import annotations

from typing import Any

from agents_catalog.agent_format import AgentDefinition, ForArgs, IfArgs, command_args

Instruction = tuple[str, Any]


def compile_block(commands: list[Any]) -> list[Instruction]:
    code: list[Instruction] = []

    def emit(block: list[Any]) -> None:
        for command in block:
            args = command_args(command)
            if isinstance(args, IfArgs):
                jump_unless = len(code)
                code.append(("jump_unless", [args.when, None]))
                emit(list(args.then))
                if args.else_:
                    jump_end = len(code)
                    code.append(("jump", None))
                    code[jump_unless][1][1] = len(code)
                    emit(list(args.else_))
                    code[jump_end] = ("jump", len(code))
                else:
                    code[jump_unless][1][1] = len(code)
            elif isinstance(args, ForArgs):
                slot = f"__for{len(code)}"
                code.append(("for_init", (args.each, slot)))
                loop = len(code)
                code.append(("for_next", [slot, args.as_, None]))
                emit(list(args.do))
                code.append(("jump", loop))
                code[loop][1][2] = len(code)
            else:
                code.append(("cmd", args))

    emit(commands)
    return code


_CODE_CACHE: dict[tuple[int, str], tuple[AgentDefinition, tuple[Instruction, ...]]] = {}


def compiled(agent: AgentDefinition, function: str) -> tuple[Instruction, ...]:
    # Keyed by identity (agent definitions are immutable); the cached tuple keeps the
    # agent alive so its id cannot be reused by another object.
    key = (id(agent), function)
    hit = _CODE_CACHE.get(key)
    if hit is None:
        hit = (agent, tuple(compile_block(agent.function(function))))
        _CODE_CACHE[key] = hit
    return hit[1]
