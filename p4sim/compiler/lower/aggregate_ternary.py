"""``c ? a : b`` on headers, header unions and structs.

BMv2 expressions only carry scalars, so the choice becomes a branch that copies the
chosen aggregate into a temporary (``_jump_if_zero`` / ``_jump`` around two stores);
the ``?:`` then reads the temporary. Only the chosen branch is evaluated, as P4 says.
"""
from __future__ import annotations

from typing import Any

from p4sim.compiler import ast
from p4sim.compiler.errors import CompileError
from p4sim.compiler.lower import jsonexpr as J
from p4sim.compiler.lower.values import Val
from p4sim.compiler.semantic.types import HeaderT, StructT, UnionT

AGGREGATE_TYPES = (HeaderT, StructT, UnionT)
_JUMP_TARGET = {"_jump": 0, "_jump_if_zero": 1}   # which parameter holds the target


class NeedsStatements(CompileError):
    """Raised where an aggregate ``?:`` has no primitive list to branch in (an ``if``
    condition in an apply block); the caller may evaluate it as statements instead."""


def choose_aggregate(ex: Any, e: ast.Ternary, cond: Val, then: Val, start: int) -> Val:
    """Lower ``e`` (whose ``then`` branch, already lowered into ``then``, emitted the
    primitives from index ``start`` on) as a branch into a temporary."""
    owner = getattr(ex, "owner", None)
    if owner is None or owner.mode == "parser":
        raise NeedsStatements(e.span, "'?:' choosing between headers or structs is only "
                           "supported in controls, actions and functions")
    out: list[dict] = owner.out
    _shift_jumps(out, start)
    out.insert(start, J.primitive("_jump_if_zero", [
        J.as_param(J.op("b2d", None, cond.cond(e.cond.span))), J.hexstr(0, 32)], None))
    temp = owner.lw.layout.storage("tmp", then.type, "tmp")
    owner.store(temp, then, e.then.span)
    skip_at = len(out)
    owner.emit("_jump", [J.hexstr(0, 32)])
    out[start]["parameters"][1] = J.hexstr(len(out), 32)
    other = ex.lower(e.otherwise)
    assert then.type is not None  # an aggregate (AGGREGATE_TYPES), checked by the caller
    if other.type != then.type:
        raise CompileError(e.otherwise.span, "the branches of '?:' have different types: "
                           f"{then.type.describe()} and "
                           f"{other.type.describe() if other.type else 'a non-value'}")
    owner.store(temp, other, e.otherwise.span)
    out[skip_at]["parameters"][0] = J.hexstr(len(out), 32)
    return ex.from_binding(temp, e.span)


def _shift_jumps(out: list[dict], start: int) -> None:
    """Make room for one primitive at ``start``: jumps from there on that target an
    index at or after it move by one."""
    for prim in out[start:]:
        slot = _JUMP_TARGET.get(prim["op"])
        if slot is None:
            continue
        param = prim["parameters"][slot]
        target = int(param["value"], 16)
        if target >= start:
            prim["parameters"][slot] = J.hexstr(target + 1, 32)
