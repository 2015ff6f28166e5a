"""Tiny generated functions for the hottest per-packet loops (bit packing and
unpacking of headers and field lists, fused expression trees), built once at load
time from integers and operators only."""
from __future__ import annotations

from typing import Any, Callable


def make_packer(slots_shifts: list[tuple[int, int]]) -> Callable[[list], int]:
    """f -> OR of f[slot] << shift, as one generated expression."""
    if not slots_shifts:
        return lambda f: 0
    terms = " | ".join(f"(f[{int(s)}] << {int(sh)})" if sh else f"f[{int(s)}]"
                       for s, sh in slots_shifts)
    return eval(f"lambda f: {terms}", {"__builtins__": {}})  # noqa: S307 - ints only


def make_unpacker(shifts_masks: list[tuple[int, int]]) -> Callable[[int], list]:
    """v -> [(v >> shift) & mask, ...] as one generated expression."""
    items = ", ".join(f"(v >> {int(s)}) & {int(m)}" if s else f"v & {int(m)}"
                      for s, m in shifts_masks)
    return eval(f"lambda v: [{items}]", {"__builtins__": {}})  # noqa: S307 - ints only


# Python spellings of the BMv2 binary operators a fused expression may use; "/" and "%"
# keep the closures' semantics (floor division and modulo of Python ints).
FUSABLE_BINARY = {"+": "+", "-": "-", "*": "*", "/": "//", "%": "%", "<<": "<<",
                  ">>": ">>", "==": "==", "!=": "!=", ">": ">", ">=": ">=", "<": "<",
                  "<=": "<=", "&": "&", "|": "|", "^": "^"}
MAX_FUSED_SOURCE = 4000   # longer trees keep their closures


def make_expression(source: str, params: str = "p, a") -> Callable[..., Any] | None:
    """(p, a) -> the value of `source`, one Python expression over p.f[slot] and a[i]
    that the expression compiler assembled from integers and operators only: a whole
    expression tree then costs one call instead of one per node.  None when too long,
    or when it reads action data and `params` is "p" (no action data: the parser)."""
    if len(source) > MAX_FUSED_SOURCE or (params == "p" and "a[" in source):
        return None
    fn = eval(f"lambda {params}: {source}", {"__builtins__": {}, "bool": bool})  # noqa: S307
    fn.source = source
    return fn  # type: ignore[no-any-return]


def make_setter(slot: int, mask: int, source: str, params: str = "p, a"
                ) -> Callable[..., None]:
    """(p, a) -> None storing `source` (see make_expression), masked, in p.f[slot]:
    an assignment whose value is a fused expression, as one generated function."""
    code = f"def setter({params}):\n    p.f[{int(slot)}] = {source} & {int(mask)}\n"
    namespace: dict[str, Any] = {"__builtins__": {}, "bool": bool}
    exec(code, namespace)  # noqa: S102 - integers and a compiler-built expression only
    return namespace["setter"]  # type: ignore[no-any-return]


def make_action_body(steps: list[Callable[..., Any]]) -> Callable[[Any, Any], None]:
    """(p, a) -> None running `steps` in order as one generated function: a step with
    a `.statement` (a plain field assignment the primitive compiler wrote from integers
    and a fused expression) is inlined, any other is called as it is."""
    lines = ["def run(p, a):"]
    namespace: dict[str, Any] = {"__builtins__": {}, "bool": bool}
    for index, step in enumerate(steps):
        statement = getattr(step, "statement", None)
        if statement is None:
            namespace[f"_step{index}"] = step
            statement = f"_step{index}(p, a)"
        lines.append(f"    {statement}")
    exec("\n".join(lines) + "\n", namespace)  # noqa: S102 - see make_setter
    return namespace["run"]  # type: ignore[no-any-return]
