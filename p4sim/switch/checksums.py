"""Checksum verification (after parsing) and update (before deparsing)."""
from __future__ import annotations

from typing import Any, Callable

from p4sim.switch.errors import LoadError
from p4sim.switch.expressions import ExprCompiler
from p4sim.switch.loader import LoadContext, require
from p4sim.switch.loader_layout import field_slot


def compile_checksums(ctx: LoadContext, exprs: ExprCompiler) -> tuple[Callable[[Any], None],
                                                                      Callable[[Any], None]]:
    """Return (verify_all, update_all) closures over the JSON's checksums."""
    verifiers, updaters = [], []
    err_slot = ctx.layout.std_slots.get("checksum_error")
    for ck in ctx.doc.get("checksums", []) or []:
        name = require(ck, "name", "checksums", str)
        where = f"checksums[{name}]"
        calc_name = require(ck, "calculation", where, str)
        calc = ctx.calculations.get(calc_name)
        if calc is None:
            raise LoadError(where, f"unknown calculation {calc_name!r}", ck)
        slot, width, _, _ = field_slot(ctx, require(ck, "target", where), where, ck)
        mask = (1 << width) - 1
        cond_json = ck.get("if_cond")
        cond = exprs.boolean(cond_json, where) if cond_json is not None else None
        compute = calc.compute
        if ck.get("verify", True):
            verifiers.append((cond, compute, slot, mask))
        if ck.get("update", True):
            updaters.append((cond, compute, slot, mask))

    def verify_all(p) -> None:
        for cond, compute, slot, mask in verifiers:
            if cond is None or cond(p, None):
                if compute(p) & mask != p.f[slot] and err_slot is not None:
                    p.f[err_slot] = 1

    def update_all(p) -> None:
        for cond, compute, slot, mask in updaters:
            if cond is None or cond(p, None):
                p.f[slot] = compute(p) & mask
    return verify_all, update_all
