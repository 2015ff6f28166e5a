"""A loaded BMv2 JSON program: closures for every v1model stage and its runtime state.

Program.load builds everything once; per packet the architecture calls new_packet,
process_ingress_side (parse, verify_checksums, ingress), egress and
finish_egress_side (update_checksums, deparse). The single-stage methods do the same
one stage at a time, for tests that look between stages.
"""
from __future__ import annotations

import logging
import random
from dataclasses import dataclass, field
from typing import Any, Callable

from p4sim.switch.action_profiles import ActionProfileRuntime
from p4sim.switch.calculations import compile_calculations
from p4sim.switch.checksums import compile_checksums
from p4sim.switch.deparser import compile_deparser
from p4sim.switch.errors import ExitPipeline, LoadError, PipelineFault
from p4sim.switch.expressions import ExprCompiler
from p4sim.switch.externs.counters import CounterArray
from p4sim.switch.externs.meters import MeterArray
from p4sim.switch.externs.registers import RegisterArray
from p4sim.switch.externs.value_sets import ValueSet
from p4sim.switch.hashes import HashRegistry
from p4sim.switch.loader import LoadContext, check_meta, require
from p4sim.switch.loader_externs import build_externs
from p4sim.switch.loader_layout import build_layout
from p4sim.switch.loader_pipeline import PipelineBuilder
from p4sim.switch.p4parser import ParserCompiler
from p4sim.switch.packet import Packet, PhvLayout
from p4sim.switch.primitives import DROP_PORT, ActionFn, PrimitiveCompiler, compile_action
from p4sim.switch.tables import TableRuntime

# Errors a pipeline can hit on bad data (PipelineFault, ValueError for a negative
# shift, ZeroDivisionError...) drop the packet; any other exception is a bug of ours,
# but it must not take the switch down either, so it is recorded the same way.
_PIPELINE_ERRORS = (Exception,)


@dataclass
class RuntimeState:
    """Everything the control plane can read or change, keyed by JSON name."""

    tables: dict[str, TableRuntime] = field(default_factory=dict)
    action_profiles: dict[str, ActionProfileRuntime] = field(default_factory=dict)
    counters: dict[str, CounterArray] = field(default_factory=dict)
    meters: dict[str, MeterArray] = field(default_factory=dict)
    registers: dict[str, RegisterArray] = field(default_factory=dict)
    value_sets: dict[str, ValueSet] = field(default_factory=dict)
    hashes: HashRegistry | None = None


class Program:
    """A BMv2 JSON program turned into closures; see the module docstring."""

    def __init__(self) -> None:
        self.layout = PhvLayout()
        self.runtime = RuntimeState()
        self.actions: dict[int, ActionFn] = {}
        self.learn_lists: dict[int, str] = {}
        self.learn_list_fields: dict[int, list[tuple[str, str]]] = {}  # (header, field)
        self.program_name = ""
        self.logger = logging.getLogger("p4sim.switch")
        self._parse: Callable[[Packet], None] = lambda p: None
        self._verify: Callable[[Packet], None] = lambda p: None
        self._update: Callable[[Packet], None] = lambda p: None
        self._deparse: Callable[[Packet], bytes] = lambda p: p.payload
        self._ingress: Callable | None = None
        self._egress: Callable | None = None
        self._espec_slot: int | None = None
        self._mgrp_slot: int | None = None
        self.drop_port = DROP_PORT   # simple_switch's --drop-port

    # --- loading ---------------------------------------------------------------
    @classmethod
    def load(cls, json_obj: dict, *, clock: Callable[[], float] | None = None,
             rng: random.Random | None = None,
             logger: logging.Logger | None = None,
             drop_port: int = DROP_PORT) -> "Program":
        """Build a program from parsed BMv2 JSON; LoadError quotes any bad fragment.

        `clock` (seconds, monotonic) drives meters and ageing; `rng` drives random();
        `drop_port` is the egress_spec that drops a packet (mark_to_drop writes it).
        """
        check_meta(json_obj)
        ctx = LoadContext(json_obj, clock, rng, logger)
        try:
            return cls._build(ctx, drop_port)
        except LoadError:
            raise
        except (KeyError, TypeError, AttributeError, IndexError, ValueError) as exc:
            raise LoadError("program", f"malformed BMv2 JSON ({type(exc).__name__}: {exc})",
                            None) from exc

    @classmethod
    def _build(cls, ctx: LoadContext, drop_port: int = DROP_PORT) -> "Program":
        doc = ctx.doc
        prog = cls()
        prog.drop_port = drop_port
        prog.logger = ctx.logger
        prog.program_name = str(doc.get("program", ""))
        build_layout(ctx)
        build_externs(ctx)
        hashes = HashRegistry(ctx.rng)
        compile_calculations(ctx, hashes)
        exprs = ExprCompiler(ctx)
        prims = PrimitiveCompiler(ctx, exprs, drop_port)
        for action in doc["actions"]:
            fn = compile_action(ctx, prims, action)
            if fn.id in prog.actions:
                raise LoadError("actions", f"duplicate action id {fn.id}", action)
            prog.actions[fn.id] = fn

        # v1model runs one parser and one deparser: without them simple_switch has
        # nothing to run (every packet would be dropped), so such a JSON is refused.
        parsers = doc["parsers"]
        if not parsers:
            raise LoadError("parsers", "a v1model program needs a parser", parsers)
        prog._parse = ParserCompiler(ctx, exprs, prims).compile(_pick(parsers, "parser"))
        deparsers = doc["deparsers"]
        if not deparsers:
            raise LoadError("deparsers", "a v1model program needs a deparser", deparsers)
        dep = _pick(deparsers, "deparser")
        dprims = [prims.compile(p, "deparser", None) for p in dep.get("primitives", []) or []]
        prog._deparse = compile_deparser(ctx, dep, dprims)
        prog._verify, prog._update = compile_checksums(ctx, exprs)

        builder = PipelineBuilder(ctx, exprs, prog.actions, hashes)
        pipelines = {}
        for pipe in doc["pipelines"]:
            pname = require(pipe, "name", "pipelines", str)
            if pname in pipelines:
                raise LoadError("pipelines", f"pipeline {pname!r} is defined twice", pipe)
            for prof in pipe.get("action_profiles", []) or []:
                builder.build_profile(prof)
            nodes: dict[str, Any] = {}
            for tbl in require(pipe, "tables", f"pipeline {pname}", list):
                builder.build_table(tbl, nodes)
            for cond in pipe.get("conditionals", []) or []:
                builder.build_conditional(cond, nodes)
            for call in pipe.get("action_calls", []) or []:
                builder.build_action_call(call, nodes)
            builder.link(nodes)
            init = pipe.get("init_table")
            if init is not None and init not in nodes:
                raise LoadError(f"pipeline {pname}", f"init_table {init!r} does not exist", pipe)
            pipelines[pname] = nodes.get(init) if init is not None else None
        for required in ("ingress", "egress"):
            if required not in pipelines:
                raise LoadError("pipelines", f"a v1model program needs an {required!r} "
                                "pipeline", sorted(pipelines))
        prog._ingress = pipelines.get("ingress")
        prog._egress = pipelines.get("egress")

        prog.layout = ctx.layout
        prog.learn_lists = {i: name for i, (name, _) in ctx.learn_lists.items()}
        prog.learn_list_fields = dict(ctx.learn_list_fields)
        prog._espec_slot = ctx.layout.std_slots.get("egress_spec")
        prog._mgrp_slot = ctx.layout.std_slots.get("mcast_grp")
        prog.runtime = RuntimeState(
            tables=builder.tables, action_profiles=builder.profiles, counters=ctx.counters,
            meters=ctx.meters, registers=ctx.registers, value_sets=ctx.value_sets,
            hashes=hashes)
        return prog

    # --- per packet ------------------------------------------------------------
    def new_packet(self, data: bytes, ingress_port: int) -> Packet:
        return Packet(self.layout, bytes(data), ingress_port)

    def parse(self, pkt: Packet) -> None:
        try:
            self._parse(pkt)
        except _PIPELINE_ERRORS as exc:
            self._fault(pkt, "parser", exc)

    def verify_checksums(self, pkt: Packet) -> None:
        try:
            self._verify(pkt)
        except _PIPELINE_ERRORS as exc:
            self._fault(pkt, "verify_checksums", exc)

    def ingress(self, pkt: Packet) -> None:
        self._run(self._ingress, pkt, "ingress")

    def egress(self, pkt: Packet) -> None:
        pkt.arch.exit_called = False      # _run inlined: this is on every packet's path
        node = self._egress
        try:
            while node is not None:
                node = node(pkt)
        except ExitPipeline:
            pass
        except _PIPELINE_ERRORS as exc:
            self._fault(pkt, "egress", exc)

    def update_checksums(self, pkt: Packet) -> None:
        try:
            self._update(pkt)
        except _PIPELINE_ERRORS as exc:
            self._fault(pkt, "update_checksums", exc)

    def deparse(self, pkt: Packet) -> bytes:
        try:
            return self._deparse(pkt)
        except _PIPELINE_ERRORS as exc:
            self._fault(pkt, "deparser", exc)
            return pkt.data

    def _run(self, node: Any, pkt: Packet, stage: str) -> None:
        """Walk a pipeline; `exit` ends it, errors are recorded and drop the packet."""
        pkt.arch.exit_called = False
        try:
            while node is not None:
                node = node(pkt)
        except ExitPipeline:
            pass
        except _PIPELINE_ERRORS as exc:
            self._fault(pkt, stage, exc)

    def _fault(self, pkt: Packet, stage: str, exc: Exception) -> None:
        kind = "" if isinstance(exc, PipelineFault) else f"{type(exc).__name__}: "
        message = f"{stage}: {kind}{exc}"
        pkt.arch.drop_errors.append(message)
        self.logger.warning("packet dropped: %s", message)
        if self._espec_slot is not None:
            pkt.f[self._espec_slot] = self.drop_port
        if self._mgrp_slot is not None:
            pkt.f[self._mgrp_slot] = 0

    def process_ingress_side(self, pkt: Packet) -> None:
        """parse + verify_checksums + ingress in one call (the architecture's hot path:
        same faults and order as the three calls, without their call overhead)."""
        try:
            self._parse(pkt)
        except _PIPELINE_ERRORS as exc:
            self._fault(pkt, "parser", exc)
        try:
            self._verify(pkt)
        except _PIPELINE_ERRORS as exc:
            self._fault(pkt, "verify_checksums", exc)
        pkt.arch.exit_called = False
        node = self._ingress
        try:
            while node is not None:
                node = node(pkt)
        except ExitPipeline:
            pass
        except _PIPELINE_ERRORS as exc:
            self._fault(pkt, "ingress", exc)

    def finish_egress_side(self, pkt: Packet) -> bytes:
        """update_checksums + deparse in one call (after egress and the architecture's
        clone and drop decisions)."""
        try:
            self._update(pkt)
        except _PIPELINE_ERRORS as exc:
            self._fault(pkt, "update_checksums", exc)
        try:
            return self._deparse(pkt)
        except _PIPELINE_ERRORS as exc:
            self._fault(pkt, "deparser", exc)
            return pkt.data


def _pick(items: list, preferred: str) -> dict:
    for item in items:
        if isinstance(item, dict) and item.get("name") == preferred:
            return item
    return items[0]
