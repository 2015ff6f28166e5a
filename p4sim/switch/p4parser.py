"""Compile the BMv2 parser (states, ops, select transitions) into closures.

A parser error stops parsing and records the error code in
standard_metadata.parser_error; the packet then goes on to ingress, as in bmv2
simple_switch.
"""
from __future__ import annotations

from typing import Any, Callable

from p4sim.switch.errors import LoadError, ParserFault
from p4sim.switch.expressions import ExprCompiler
from p4sim.switch.loader import LoadContext, parse_hexstr, require
from p4sim.switch.loader_codegen import make_expression, make_unpacker
from p4sim.switch.loader_layout import field_slot
from p4sim.switch.packet import HeaderInfo
from p4sim.switch.primitives import PrimitiveCompiler

MAX_STATES_PER_PACKET = 10000


class _ErrorCodes:
    """The program's numbers for the core errors a varbit extract can raise."""

    def __init__(self, too_short: int, header_too_short: int, invalid_argument: int) -> None:
        self.too_short = too_short
        self.header_too_short = header_too_short
        self.invalid_argument = invalid_argument


def _fixed_extractor(info: HeaderInfo, too_short: int) -> Callable[[Any], None]:
    nbytes = info.fixed_bits // 8
    shifts, pos = [], info.fixed_bits
    for width in info.widths:
        pos -= width
        shifts.append((pos, (1 << width) - 1))
    base, vslot = info.base, info.valid_slot
    unpack = make_unpacker(shifts + [(0, 0)])  # the trailing 0 is replaced by valid=1
    from_bytes = int.from_bytes

    def extract(p) -> None:
        off = p.offset
        end = off + nbytes
        data = p.data
        if end > len(data):
            raise ParserFault(too_short, f"packet too short to extract {info.name}")
        values = unpack(from_bytes(data[off:end], "big"))
        values[-1] = 1
        p.f[base:vslot + 1] = values
        p.offset = end
    return extract


def _varbit_extractor(info: HeaderInfo, length: Callable | None, codes: _ErrorCodes
                      ) -> Callable[[Any], None]:
    """BMv2's order of checks (bm_sim/parser.cpp): a length that is not whole bytes
    (ParserInvalidArgument), then the packet's size (PacketTooShort), then the
    field's maximum (HeaderTooShort)."""
    vi = info.varbit_index
    base, vslot, wslot = info.base, info.valid_slot, info.vl_width_slot
    widths = info.widths

    def extract_vl(p) -> None:
        vbits = length(p, None) if length is not None else 0
        if vbits % 8:
            raise ParserFault(codes.invalid_argument,
                              f"varbit length {vbits} of {info.name} is not a multiple of 8")
        total = info.fixed_bits + vbits
        nbytes = total // 8
        off = p.offset
        if off + nbytes > len(p.data):
            raise ParserFault(codes.too_short, f"packet too short to extract {info.name}")
        if vbits > info.varbit_max_bits:
            raise ParserFault(codes.header_too_short,
                              f"varbit length {vbits} exceeds the maximum of {info.name}")
        v = int.from_bytes(p.data[off:off + nbytes], "big")
        pos = total
        f = p.f
        for i, width in enumerate(widths):
            if i == vi:
                width = vbits
            pos -= width
            f[base + i] = (v >> pos) & ((1 << width) - 1)
        f[wslot] = vbits
        f[vslot] = 1
        p.offset = off + nbytes
    return extract_vl


def _lookahead(offset_bits: int, width: int, too_short: int) -> Callable:
    def lookahead(p, a):
        start = p.offset * 8 + offset_bits
        end = start + width
        if end > len(p.data) * 8:
            raise ParserFault(too_short, "packet too short for lookahead")
        first, last = start // 8, (end + 7) // 8
        v = int.from_bytes(p.data[first:last], "big")
        return (v >> (last * 8 - end)) & ((1 << width) - 1)
    return lookahead


_NO_CASE = object()   # sentinel: a select value no exact case lists


def _exact_dispatch(cases: tuple, full_mask: int) -> tuple[dict, bool, Any] | None:
    """A select whose cases are exact values (then maybe a default) as a dict lookup:
    (value -> next state, has default, default's next state), keeping first-match
    order; None when a masked or value-set case needs the in-order scan."""
    table: dict[int, Any] = {}
    for kind, value, mask, target in cases:
        if kind == "default":
            return table, True, target       # later cases can never match
        if kind != "hex" or mask != full_mask:
            return None
        table.setdefault(value, target)
    return table, False, None


class ParserState:
    __slots__ = ("name", "run")

    def __init__(self, name: str) -> None:
        self.name = name
        self.run: Callable[[Any], Any] = lambda p: None


class ParserCompiler:
    def __init__(self, ctx: LoadContext, exprs: ExprCompiler, prims: PrimitiveCompiler) -> None:
        self.ctx = ctx
        self.x = exprs
        self.prims = prims
        self.too_short = ctx.error_code("PacketTooShort")
        self.out_of_bounds = ctx.error_code("StackOutOfBounds")
        self.header_too_short = ctx.error_code("HeaderTooShort")
        self.no_match = ctx.error_code("NoMatch")
        self.timeout = ctx.error_code("ParserTimeout")
        self.invalid_argument = ctx.error_code("ParserInvalidArgument")

    def compile(self, parser: dict) -> Callable[[Any], None]:
        name = require(parser, "name", "parsers", str)
        where = f"parser {name}"
        states_json = require(parser, "parse_states", where, list)
        states: dict[str, ParserState] = {}
        for st in states_json:
            sname = require(st, "name", where, str)
            states[sname] = ParserState(sname)
        for st in states_json:
            self._compile_state(st, states, where)
        init = parser.get("init_state")
        if init not in states:
            raise LoadError(where, f"init_state {init!r} is not a parse state", parser)
        start = states[init]
        err_slot = self.ctx.layout.std_slots.get("parser_error")
        timeout = self.timeout

        def parse(p) -> None:
            state = start
            steps = 0
            try:
                while state is not None:
                    state = state.run(p)
                    steps += 1
                    if steps > MAX_STATES_PER_PACKET:
                        raise ParserFault(timeout, "parser did not terminate")
            except ParserFault as fault:
                if err_slot is not None:
                    p.f[err_slot] = fault.code
            p.payload = p.data[p.offset:]
        return parse

    # --- one state -------------------------------------------------------------
    def _compile_state(self, st: dict, states: dict[str, ParserState], where: str) -> None:
        sname = st["name"]
        where = f"{where}, state {sname}"
        ops = [self._op(op, where) for op in require(st, "parser_ops", where, list)]
        keys = [self._key(k, where) for k in st.get("transition_key", []) or []]
        transitions = require(st, "transitions", where, list)
        padded_shifts, total, compressed_total = [], 0, 0
        for _, width in reversed(keys):
            padded_shifts.append(total)
            total += (width + 7) // 8 * 8
            compressed_total += width
        padded_shifts.reverse()
        readers = [(fn, sh, (1 << w) - 1) for (fn, w), sh in zip(keys, padded_shifts)]

        def padded_key(p) -> int:
            k = 0
            for fn, sh, m in readers:
                k |= (fn(p, None) & m) << sh
            return k
        only_slot = getattr(readers[0][0], "slot", None) if len(readers) == 1 else None
        sources = [getattr(fn, "source", None) for fn, _, _ in readers]
        fused = (make_expression(" | ".join(f"(({src} & {m}) << {sh})"
                                            for src, (_, sh, m) in zip(sources, readers)),
                                 params="p")
                 if readers and only_slot is None and None not in sources else None)
        if fused is not None:
            padded_key = fused     # noqa: F811 - the whole key as one generated expression
        if only_slot is not None:
            key_slot = only_slot  # a plain unsigned field: no masking needed

            def padded_key(p) -> int:  # noqa: F811 - the one-field fast path
                return p.f[key_slot]

        def compressed_key(p) -> int:
            k = 0
            for fn, w in keys:
                k = (k << w) | (fn(p, None) & ((1 << w) - 1))
            return k

        cases: list[tuple] = []
        for tr in transitions:
            kind = tr.get("type") if isinstance(tr, dict) else None
            nxt = tr.get("next_state") if isinstance(tr, dict) else None
            if nxt is not None and nxt not in states:
                raise LoadError(where, f"transition to unknown state {nxt!r}", tr)
            target = states[nxt] if nxt is not None else None
            if kind == "default":
                cases.append(("default", 0, 0, target))
            elif kind == "hexstr":
                value = parse_hexstr(tr.get("value"), where, tr)
                mask = tr.get("mask")
                m = parse_hexstr(mask, where, tr) if mask is not None else (1 << total) - 1
                cases.append(("hex", value & m, m, target))
            elif kind == "parse_vset":
                vset = self.ctx.value_sets.get(tr.get("value"))
                if vset is None:
                    raise LoadError(where, f"unknown parse_vset {tr.get('value')!r}", tr)
                mask = tr.get("mask")
                vset_mask = parse_hexstr(mask, where, tr) if mask is not None else None
                cases.append(("vset", vset, vset_mask, target))
            else:
                raise LoadError(where, "transition type must be default, hexstr or parse_vset", tr)
        no_match = self.no_match
        has_vset = any(c[0] == "vset" for c in cases)
        ops_t = tuple(ops)
        cases_t = tuple(cases)

        if not keys and len(cases) == 1 and cases[0][0] == "default":
            only = cases[0][3]

            def run_simple(p):
                for op in ops_t:
                    op(p)
                return only
            states[sname].run = run_simple
            return

        dispatch = _exact_dispatch(cases_t, (1 << total) - 1) if not has_vset else None
        if dispatch is not None:
            table, has_default, default_target = dispatch

            def run_exact(p):
                for op in ops_t:
                    op(p)
                target = table.get(padded_key(p), _NO_CASE)
                if target is _NO_CASE:
                    if has_default:
                        return default_target
                    raise ParserFault(no_match, f"no transition matched in state {sname}")
                return target
            states[sname].run = run_exact
            return

        def run(p):
            for op in ops_t:
                op(p)
            k = padded_key(p)
            ck = compressed_key(p) if has_vset else 0
            for kind, value, mask, target in cases_t:
                if kind == "hex":
                    if k & mask == value:
                        return target
                elif kind == "default":
                    return target
                else:
                    probe = ck if mask is None else ck & mask
                    if value.matches(probe):
                        return target
            raise ParserFault(no_match, f"no transition matched in state {sname}")
        states[sname].run = run

    def _key(self, key: Any, where: str) -> tuple[Callable, int]:
        kind = key.get("type") if isinstance(key, dict) else None
        if kind == "field":
            _, width, _, _ = field_slot(self.ctx, key.get("value"), where, key)
            return self.x.data(key, where), width
        if kind == "stack_field":
            stack = self.x.stack_info(key["value"][0], where, key)
            first = self.ctx.layout.header_by_id[stack.header_ids[0]]
            if key["value"][1] not in first.field_names:
                raise LoadError(where, "unknown stack field", key)
            width = first.widths[first.field_names.index(key["value"][1])]
            return self.x.data(key, where), width
        if kind == "union_stack_field":
            read = self.x.data(key, where)  # checks [stack, member, field]
            ustack = self.ctx.layout.union_stacks[key["value"][0]]
            first = self.ctx.layout.header_by_id[ustack.member_ids(key["value"][1])[0]]
            return read, first.widths[first.field_names.index(key["value"][2])]
        if kind == "lookahead":
            value = key.get("value")
            if not isinstance(value, list) or len(value) != 2:
                raise LoadError(where, "lookahead must be [offset, bitwidth]", key)
            return _lookahead(value[0], value[1], self.too_short), value[1]
        raise LoadError(where, "transition_key items must be field, stack_field, "
                        "union_stack_field or lookahead", key)

    # --- parser ops ------------------------------------------------------------
    def _op(self, op: Any, where: str) -> Callable[[Any], None]:
        name = op.get("op") if isinstance(op, dict) else None
        params = op.get("parameters") if isinstance(op, dict) else None
        if not isinstance(params, list):
            raise LoadError(where, "a parser op needs 'op' and 'parameters'", op)
        if name in ("extract", "extract_VL"):
            return self._extract(op, params, where, name == "extract_VL")
        if name == "set":
            if len(params) != 2:
                raise LoadError(where, "set takes 2 parameters", op)
            src_json = params[1]
            if isinstance(src_json, dict) and src_json.get("type") == "lookahead":
                value = src_json.get("value")
                if not isinstance(value, list) or len(value) != 2:
                    raise LoadError(where, "lookahead needs [offset, width]", src_json)
                src = _lookahead(value[0], value[1], self.too_short)
            else:
                src = self.x.data(src_json, where)
            prim = self.prims._assign(params[0], src, where, None)
            run_set = getattr(prim, "run_without_args", None)
            return run_set if run_set is not None else (lambda p: prim(p, None))
        if name == "verify":
            if len(params) != 2:
                raise LoadError(where, "verify takes 2 parameters", op)
            cond = self.x.data(params[0], where)
            error = self.x.data(params[1], where)

            def verify(p):
                if not cond(p, None):
                    raise ParserFault(error(p, None), "verify failed")
            return verify
        if name in ("advance", "shift"):
            if len(params) != 1:
                raise LoadError(where, f"{name} takes 1 parameter", op)
            amount = self.x.data(params[0], where)
            factor = 1 if name == "shift" else 8
            too_short, invalid_argument = self.too_short, self.invalid_argument

            def advance(p):
                nbits = amount(p, None) * (8 if factor == 1 else 1)
                if nbits % 8:  # as BMv2: advance() takes whole bytes only
                    raise ParserFault(invalid_argument,
                                      f"advance by {nbits} bits is not whole bytes")
                end = p.offset + nbits // 8
                if end > len(p.data):
                    raise ParserFault(too_short, "packet too short to advance")
                p.offset = end
            return advance
        if name == "primitive":
            if len(params) != 1:
                raise LoadError(where, "primitive takes 1 parameter", op)
            prim = self.prims.compile(params[0], where, None)
            return lambda p: prim(p, None)
        raise LoadError(where, f"unknown parser op {name!r}", op)

    def _extract(self, op: dict, params: list, where: str, vl: bool) -> Callable:
        if len(params) != (2 if vl else 1):
            raise LoadError(where, f"{op.get('op')} takes {2 if vl else 1} parameter(s)", op)
        target = params[0]
        kind = target.get("type") if isinstance(target, dict) else None
        length = self.x.data(params[1], where) if vl else None
        layout = self.ctx.layout

        def extractor(info: HeaderInfo) -> Callable:
            if info.varbit_index is not None:
                fn = _varbit_extractor(info, length, _ErrorCodes(
                    self.too_short, self.header_too_short, self.invalid_argument))
            elif info.fixed_bits % 8:
                raise LoadError(where, f"header {info.name} is not a whole number of bytes", op)
            else:
                fn = _fixed_extractor(info, self.too_short)
            siblings = self.prims.siblings.get(info.hid)
            if not siblings:
                return fn

            def extract_union_member(p) -> None:
                fn(p)
                for slot in siblings:  # a union holds at most one valid member
                    p.f[slot] = 0
            return extract_union_member

        if kind == "regular":
            info = layout.header_by_name.get(target.get("value"))
            if info is None:
                raise LoadError(where, f"unknown header {target.get('value')!r}", op)
            return extractor(info)
        if kind == "stack":
            stack = layout.stacks.get(target.get("value"))
            if stack is None:
                raise LoadError(where, f"unknown header stack {target.get('value')!r}", op)
            fns = [extractor(layout.header_by_id[h]) for h in stack.header_ids]
            return _extract_next(fns, stack.next_slot, self.out_of_bounds,
                                 f"stack {stack.name}")
        if kind == "union_stack":
            # ["ustack", "member"]: `member` of the element at `next` (its siblings
            # become invalid), then `next` moves on, as for a header stack
            value = target.get("value")
            if (not isinstance(value, list) or len(value) != 2
                    or not all(isinstance(v, str) for v in value)):
                raise LoadError(where, "a union_stack extract target must be "
                                "[union stack, member]", op)
            ustack = layout.union_stacks.get(value[0])
            if ustack is None:
                raise LoadError(where, f"unknown header union stack {value[0]!r}", op)
            try:
                ids = ustack.member_ids(value[1])
            except KeyError:
                raise LoadError(where, f"header union stack {value[0]!r} has no member "
                                f"{value[1]!r}", op) from None
            fns = [extractor(layout.header_by_id[h]) for h in ids]
            return _extract_next(fns, ustack.next_slot, self.out_of_bounds,
                                 f"header union stack {ustack.name}")
        raise LoadError(where, "extract target must be regular, stack or union_stack", op)


def _extract_next(fns: list[Callable], nslot: int, out_of_bounds: int,
                  what: str) -> Callable[[Any], None]:
    """Extract into the element at the stack's `next` index and advance it; a full
    stack is StackOutOfBounds."""
    size = len(fns)

    def extract_next(p):
        n = p.f[nslot]
        if n >= size:
            raise ParserFault(out_of_bounds, f"{what} is full")
        fns[n](p)
        p.f[nslot] = n + 1
    return extract_next
