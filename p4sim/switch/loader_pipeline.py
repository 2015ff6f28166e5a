"""Build control flow: tables (with their runtime objects), action profiles and
conditionals, linked into per-pipeline closures node(pkt) -> next node."""
from __future__ import annotations

from typing import Any, Callable

from p4sim.switch.action_profiles import ActionProfileRuntime
from p4sim.switch.calculations import compile_buf_builder
from p4sim.switch.errors import LoadError, PipelineFault
from p4sim.switch.expressions import ExprCompiler
from p4sim.switch.loader import LoadContext, parse_hexstr, require, require_size
from p4sim.switch.loader_layout import field_slot
from p4sim.switch.match_units import ExactUnit
from p4sim.switch.primitives import ActionFn
from p4sim.switch.runtime_api import (
    ExactParam, LpmParam, MatchParam, RangeParam, TableError, TernaryParam, ValidParam)
from p4sim.switch.tables import KeyElement, TableAction, TableRuntime

Node = Callable[[Any], Any]
MATCH_KINDS = ("exact", "lpm", "ternary", "range", "valid", "optional")


class Links:
    """Targets of a node, filled in once every node exists."""

    __slots__ = ("hit", "miss", "empty", "true", "false")

    def __init__(self) -> None:
        self.hit: Node | None = None
        self.miss: Node | None = None
        self.empty: Node | None = None
        self.true: Node | None = None
        self.false: Node | None = None


class PipelineBuilder:
    def __init__(self, ctx: LoadContext, exprs: ExprCompiler,
                 actions: dict[int, ActionFn], hashes: Any) -> None:
        self.ctx = ctx
        self.x = exprs
        self.actions = actions
        self.hashes = hashes
        self.tables: dict[str, TableRuntime] = {}
        self.profiles: dict[str, ActionProfileRuntime] = {}
        self._pending: list[Callable[[dict[str, Node]], None]] = []
        # For fusing straight-line runs (see _fuse_const_runs): the compiler's
        # one-action tables as (run, args, next node name), conditionals as
        # (expression, links), both by node name.
        self._const: dict[str, tuple[Callable, tuple, str | None]] = {}
        self._conds: dict[str, tuple[Callable, Links]] = {}

    # --- action profiles -------------------------------------------------------
    def build_profile(self, prof: dict) -> None:
        name = require(prof, "name", "action_profiles", str)
        where = f"action_profiles[{name}]"
        if name in self.profiles:
            raise LoadError("action_profiles", f"{name!r} is defined twice", prof)
        selector = None
        sel = prof.get("selector")
        if sel is not None:
            algo = require(sel, "algo", where, str)
            fn = self.hashes.get(algo)
            if fn is None:
                raise LoadError(where, f"unknown selector hash algorithm {algo!r}", sel)
            build = compile_buf_builder(self.ctx, require(sel, "input", where, list), where)
            selector = lambda p: fn(build(p))  # noqa: E731
        self.profiles[name] = ActionProfileRuntime(
            name, require_size(prof, "max_size", where, default=1024), selector)

    # --- tables ----------------------------------------------------------------
    def build_table(self, tbl: dict, nodes: dict[str, Node]) -> None:
        name = require(tbl, "name", "tables", str)
        where = f"table {name}"
        if name in self.tables or name in nodes:
            raise LoadError("tables", f"{name!r} is defined twice", tbl)
        match_type = tbl.get("match_type", "exact")
        if match_type not in ("exact", "lpm", "ternary", "range"):
            raise LoadError(where, f"bad table match_type {match_type!r}", tbl)
        elements, readers, shift = [], [], 0
        for key in reversed(require(tbl, "key", where, list)):
            kind = key.get("match_type") if isinstance(key, dict) else None
            if kind not in MATCH_KINDS:
                raise LoadError(where, f"bad key match_type {kind!r}", key)
            target = key.get("target")
            guard = None  # bm_sim reads the fields of an invalid header as 0 in keys
            if kind == "valid":
                info = self.ctx.layout.header_by_name.get(target)
                if info is None:
                    raise LoadError(where, f"unknown header {target!r} in valid key", key)
                slot, width = info.valid_slot, 1
                display = key.get("name") or f"{target}.$valid$"
            else:
                slot, width, _, info = field_slot(self.ctx, target, where, key)
                display = key.get("name") or ".".join(target)
                if not info.metadata and slot != info.valid_slot:
                    guard = info.valid_slot
            static_mask = key.get("mask")
            m = parse_hexstr(static_mask, where, key) if static_mask is not None else None
            elements.append(KeyElement(display, kind, width, shift))
            readers.append((slot, shift, m, guard))
            shift += width
        elements.reverse()
        key_fn = _key_builder(readers)

        action_ids = require(tbl, "action_ids", where, list)
        action_names = tbl.get("actions", [])
        table_actions: dict[str, TableAction] = {}
        by_id: dict[int, TableAction] = {}
        for i, aid in enumerate(action_ids):
            fn = self.actions.get(aid)
            if fn is None:
                raise LoadError(where, f"unknown action id {aid!r}", tbl)
            if i < len(action_names) and action_names[i] != fn.name:
                raise LoadError(where, f"action id {aid} is {fn.name!r}, not "
                                f"{action_names[i]!r}", tbl)
            ta = TableAction(fn, fn.name)
            table_actions[fn.name] = ta
            by_id[aid] = ta

        profile = None
        ttype = tbl.get("type", "simple")
        if ttype in ("indirect", "indirect_ws"):
            pname = tbl.get("action_profile")
            profile = self.profiles.get(pname) if isinstance(pname, str) else None
            if profile is None:
                raise LoadError(where, f"unknown action_profile {pname!r}", tbl)
            if ttype == "indirect_ws" and not profile.has_selector:
                raise LoadError(where, f"action profile {pname} has no selector", tbl)
            for ta in table_actions.values():
                profile.actions[ta.name] = ta.fn
        elif ttype != "simple":
            raise LoadError(where, f"bad table type {ttype!r}", tbl)

        direct_meter = tbl.get("direct_meters")
        meter_slot, meter_bytes = None, False
        if direct_meter is not None:
            marr = self.ctx.direct_meters.get(direct_meter)
            if marr is None:
                raise LoadError(where, f"unknown direct meter {direct_meter!r}", tbl)
            meter_slot, _, _, _ = field_slot(self.ctx, marr.get("result_target"), where, marr)
            meter_bytes = marr.get("type") == "bytes"
        # BMv2 sizes a table to hold its const entries whatever max_size says
        entries = tbl.get("entries") or []
        if not isinstance(entries, list):
            raise LoadError(where, "entries must be a list", tbl)
        size = max(require_size(tbl, "max_size", where, default=1024), len(entries))
        rt = TableRuntime(
            name, elements, match_type, table_actions, size,
            bool(tbl.get("with_counters")), direct_meter is not None,
            bool(tbl.get("support_timeout")), self.ctx.clock, profile)
        self.tables[name] = rt

        default = tbl.get("default_entry")
        if default is not None:
            aid = require(default, "action_id", where, int)
            if aid not in by_id:
                raise LoadError(where, f"default action id {aid} is not an action of the table",
                                default)
            args = [parse_hexstr(v, where, default) for v in default.get("action_data", [])]
            ta = by_id[aid]
            try:
                rt.set_default_action(ta.name, args)
            except TableError as exc:
                raise LoadError(where, f"bad default entry: {exc}", default) from None
            rt.initial_default = (rt.default_act, rt.default_args)
            rt.default_action_const = bool(default.get("action_const"))
            rt.default_entry_const = bool(default.get("action_entry_const"))
        for entry in entries:
            self._const_entry(rt, entry, by_id, where)
        if entries:
            rt.is_const = True

        links = Links()
        next_tables = require(tbl, "next_tables", where, dict)
        hit_miss = "__HIT__" in next_tables or "__MISS__" in next_tables
        base_default = tbl.get("base_default_next")

        def link(all_nodes: dict[str, Node]) -> None:
            def resolve(target: Any) -> Node | None:
                if target is None:
                    return None
                if target not in all_nodes:
                    raise LoadError(where, f"next table {target!r} does not exist", tbl)
                return all_nodes[target]
            links.empty = resolve(base_default)
            if hit_miss:
                links.hit = resolve(next_tables.get("__HIT__"))
                links.miss = resolve(next_tables.get("__MISS__"))
            for ta in table_actions.values():
                if not hit_miss and ta.name not in next_tables:
                    raise LoadError(where, f"next_tables has no entry for action {ta.name!r}",
                                    next_tables)
                ta.next = resolve(next_tables.get(ta.name)) if not hit_miss else None
        self._pending.append(link)
        nodes[name] = _table_node(rt, key_fn, links, hit_miss, meter_slot, meter_bytes)
        if rt.keys == [] and not hit_miss and rt.default_entry_const \
                and rt.default_act is not None:
            self._const[name] = (rt.default_act.fn.run, rt.default_args,
                                 next_tables.get(rt.default_act.name))

    def _const_entry(self, rt: TableRuntime, entry: dict, by_id: dict, where: str) -> None:
        params: list[MatchParam] = []
        for mk in require(entry, "match_key", where, list):
            kind = mk.get("match_type") if isinstance(mk, dict) else None
            if kind == "exact":
                params.append(ExactParam(parse_hexstr(mk.get("key"), where, mk)))
            elif kind == "lpm":
                params.append(LpmParam(parse_hexstr(mk.get("key"), where, mk),
                                       require(mk, "prefix_length", where, int)))
            elif kind in ("ternary", "optional"):
                params.append(TernaryParam(parse_hexstr(mk.get("key"), where, mk),
                                           parse_hexstr(mk.get("mask"), where, mk)))
            elif kind == "range":
                params.append(RangeParam(parse_hexstr(mk.get("start"), where, mk),
                                         parse_hexstr(mk.get("end"), where, mk)))
            elif kind == "valid":
                params.append(ValidParam(bool(mk.get("key"))))
            else:
                raise LoadError(where, f"bad const entry match_type {kind!r}", mk)
        ae = require(entry, "action_entry", where, dict)
        aid = require(ae, "action_id", where, int)
        if aid not in by_id:
            raise LoadError(where, f"const entry action id {aid} is not an action of the table",
                            entry)
        args = [parse_hexstr(v, where, ae) for v in ae.get("action_data", [])]
        try:
            rt.add_const_entry(params, by_id[aid].name, args, int(entry.get("priority", 0)))
        except TableError as exc:
            raise LoadError(where, f"bad const entry: {exc}", entry) from None

    # --- conditionals and linking ----------------------------------------------
    def build_conditional(self, cond: dict, nodes: dict[str, Node]) -> None:
        name = require(cond, "name", "conditionals", str)
        where = f"conditional {name}"
        if name in nodes:
            raise LoadError("conditionals", f"{name!r} is defined twice", cond)
        expr = self.x.boolean(require(cond, "expression", where), where)
        links = Links()
        true_name, false_name = cond.get("true_next"), cond.get("false_next")

        def link(all_nodes: dict[str, Node]) -> None:
            for attr, target in (("true", true_name), ("false", false_name)):
                if target is not None and target not in all_nodes:
                    raise LoadError(where, f"next node {target!r} does not exist", cond)
                setattr(links, attr, all_nodes.get(target) if target is not None else None)
        self._pending.append(link)
        self._conds[name] = (expr, links)
        nodes[name] = _conditional_node(expr, links)

    def build_action_call(self, call: dict, nodes: dict[str, Node]) -> None:
        name = require(call, "name", "action_calls", str)
        if name in nodes:
            raise LoadError("action_calls", f"{name!r} is defined twice", call)
        action_id = call.get("action_id")
        fn = self.actions.get(action_id) if isinstance(action_id, int) else None
        if fn is None:
            raise LoadError(f"action_call {name}", "unknown action_id", call)
        links = Links()
        target = call.get("next_node")

        def link(all_nodes: dict[str, Node]) -> None:
            links.true = all_nodes.get(target) if target is not None else None
        self._pending.append(link)
        run = fn.run

        def action_call(p):
            run(p, ())
            return links.true
        nodes[name] = action_call

    def link(self, nodes: dict[str, Node]) -> None:
        """Resolve the next-node names of everything built since the last link."""
        self._fuse_const_runs(nodes)
        pending, self._pending = self._pending, []
        for step in pending:
            step(nodes)

    def _fuse_const_runs(self, nodes: dict[str, Node]) -> None:
        """Replace each of the compiler's one-action tables by a node that runs it and
        every one-action table straight after it, and then the conditional that
        follows, if one does: the same steps in the same order, with one node call
        instead of several (fabric.p4 runs dozens of these per packet)."""
        const, conds = self._const, self._conds
        fused: dict[str, Node] = {}
        for name in const:
            steps: list[tuple[Callable, tuple]] = []
            seen: set[str] = set()
            at: str | None = name
            while at in const and at not in seen and len(steps) < MAX_FUSED_STEPS:
                seen.add(at)
                run, args, at = const[at]
                steps.append((run, args))
            if at is not None and at not in nodes:
                continue   # a dangling name: left to the ordinary link, which says so
            cond = conds.get(at) if at is not None and at not in const else None
            fused[name] = _fused_node(tuple(steps), cond,
                                      nodes[at] if at is not None else None)
        nodes.update(fused)
        self._const, self._conds = {}, {}


MAX_FUSED_STEPS = 16


def _fused_node(steps: tuple[tuple[Callable, tuple], ...], cond: tuple[Callable, Links] | None,
                after: Node | None) -> Node:
    """Run `steps` (action body, action data) in order, then either evaluate `cond` (a
    conditional's expression and links, as _conditional_node does) or go on to
    `after`."""
    if cond is None:
        if len(steps) == 1:
            (run, args), = steps

            def run_one(p):
                run(p, args)
                return after
            return run_one

        def run_steps(p):
            for run, args in steps:
                run(p, args)
            return after
        return run_steps
    expr, links = cond
    test = getattr(expr, "test", None)
    if test is None:
        def steps_then_expr(p):
            for run, args in steps:
                run(p, args)
            return links.true if expr(p, None) else links.false
        return steps_then_expr
    slot, mask, value, equal = test
    if len(steps) == 1 and mask == -1:
        (run, args), = steps
        if equal:
            def one_then_eq(p):
                run(p, args)
                return links.true if p.f[slot] == value else links.false
            return one_then_eq

        def one_then_ne(p):
            run(p, args)
            return links.true if p.f[slot] != value else links.false
        return one_then_ne

    def steps_then_test(p):
        for run, args in steps:
            run(p, args)
        if (p.f[slot] & mask == value) == equal:
            return links.true
        return links.false
    return steps_then_test


def _conditional_node(expr: Callable, links: Links) -> Node:
    """A conditional's node; a plain field test (isValid(), x == c, x & m != c...) is
    evaluated inline rather than through its expression closure: big programs run
    dozens of these per packet."""
    test = getattr(expr, "test", None)
    if test is None:
        def conditional(p):
            return links.true if expr(p, None) else links.false
        return conditional
    slot, mask, value, equal = test
    if mask == -1 and equal:
        def conditional_eq(p):
            return links.true if p.f[slot] == value else links.false
        return conditional_eq
    if mask == -1:
        def conditional_ne(p):
            return links.true if p.f[slot] != value else links.false
        return conditional_ne
    if equal:
        def conditional_masked_eq(p):
            return links.true if p.f[slot] & mask == value else links.false
        return conditional_masked_eq

    def conditional_masked_ne(p):
        return links.true if p.f[slot] & mask != value else links.false
    return conditional_masked_ne


def _key_builder(readers: list[tuple[int, int, int | None, int | None]]) -> Callable[[Any], int]:
    """Closure building a table's concatenated key from the PHV."""
    if not readers:
        return lambda p: 0
    if len(readers) == 1:
        slot, shift, m, guard = readers[0]
        mask = -1 if m is None else m
        if guard is None:
            if m is None:
                return lambda p: p.f[slot]
            return lambda p: p.f[slot] & mask

        def guarded_key(p) -> int:
            f = p.f
            return f[slot] & mask if f[guard] else 0
        return guarded_key
    rs = tuple((slot, shift, -1 if m is None else m, guard)
               for slot, shift, m, guard in readers)

    def key(p) -> int:
        f = p.f
        k = 0
        for slot, shift, m, guard in rs:
            if guard is None or f[guard]:
                k |= (f[slot] & m) << shift
        return k
    return key


def _table_node(rt: TableRuntime, key_fn: Callable, links: Links, hit_miss: bool,
                meter_slot: int | None, meter_bytes: bool) -> Node:
    lookup = rt.fast_lookup
    counters = rt.has_direct_counter
    timeout = rt.support_timeout
    clock = rt._clock
    profile = rt.profile
    by_action_id = {ta.fn.id: ta for ta in rt.actions.values()}
    keyless = not rt.keys

    def miss(p):
        act = rt.default_act
        if act is None:
            return links.miss if hit_miss else links.empty
        act.fn.run(p, rt.default_args)
        return links.miss if hit_miss else act.next

    if keyless and not hit_miss:
        if rt.default_entry_const and rt.default_act is not None:
            # The compiler's one-action tables: nothing can change what they run.
            act, run, args = rt.default_act, rt.default_act.fn.run, rt.default_args

            def const_default(p):
                run(p, args)
                return act.next
            return const_default
        return miss

    def hit(p, entry):
        if counters:
            c = entry.counter
            c[0] += p.ingress_length
            c[1] += 1
        if meter_slot is not None:
            amount = p.ingress_length if meter_bytes else 1
            p.f[meter_slot] = entry.meter.execute(amount, clock() * 1e6)
        if timeout:
            entry.last_hit = clock()
        act = entry.act
        if profile is not None:
            member = profile.resolve(p, entry.member, entry.group)
            if member is None:
                return miss(p)
            act = by_action_id.get(member.fn.id)
            if act is None:
                raise PipelineFault(f"table {rt.name}: member action {member.fn.name} unknown")
            act.fn.run(p, member.args)
        else:
            act.fn.run(p, entry.args)
        return links.hit if hit_miss else act.next

    plain = not (counters or meter_slot is not None or timeout or profile is not None)
    unit = rt.match_unit
    if isinstance(unit, ExactUnit):
        # An exact table's dict lives as long as the table: an empty one is a miss
        # without building the key, a plain entry runs its action inline.
        entries = unit.items
        get = entries.get

        def apply_exact(p):
            if entries:
                entry = get(key_fn(p))
                if entry is not None:
                    if plain:
                        act = entry.act
                        act.fn.run(p, entry.args)
                        return links.hit if hit_miss else act.next
                    return hit(p, entry)
            act = rt.default_act
            if act is None:
                return links.miss if hit_miss else links.empty
            act.fn.run(p, rt.default_args)
            return links.miss if hit_miss else act.next
        return apply_exact

    def apply(p):
        if unit.items:
            entry = lookup(key_fn(p))
            if entry is not None:
                return hit(p, entry)
        act = rt.default_act
        if act is None:
            return links.miss if hit_miss else links.empty
        act.fn.run(p, rt.default_args)
        return links.miss if hit_miss else act.next
    return apply
