"""Compile action primitives (core bm_sim and v1model ones) into closures fn(pkt, args),
and actions into ActionFn objects that run them in order."""
from __future__ import annotations

from typing import Any, Callable

from p4sim.switch.errors import ExitPipeline, LoadError, PipelineFault
from p4sim.switch.expressions import ExprCompiler, is_const
from p4sim.switch.loader import LoadContext, require
from p4sim.switch.loader_codegen import MAX_FUSED_SOURCE, make_action_body, make_setter
from p4sim.switch.packet import HeaderInfo

Prim = Callable[[Any, Any], None]
DROP_PORT = 511


class ActionFn:
    """One compiled action: its parameters and the closure that runs its body."""

    def __init__(self, name: str, action_id: int, param_names: list[str],
                 param_widths: list[int], run: Callable[[Any, Any], None]) -> None:
        self.name = name
        self.id = action_id
        self.param_names = param_names
        self.param_widths = param_widths
        self.run = run


def _set_valid(info: HeaderInfo, siblings: list[int]) -> Prim:
    """add_header / setValid: zero the fields of an invalid header, then mark it valid;
    other members of its union become invalid."""
    base, vslot = info.base, info.valid_slot
    zeros = [0] * (vslot - base)

    def add_header(p, a):
        f = p.f
        if not f[vslot]:
            f[base:vslot] = zeros
            f[vslot] = 1
            for s in siblings:
                f[s] = 0
    return add_header


def _flat_stack(spans: list[list[tuple[int, int, int]]]) -> tuple[int, int, list] | None:
    """(first slot, slots per element, valid slots per element) when a stack's elements
    lie back to back in the PHV with one layout, so that shifting it is one slice
    move; None otherwise."""
    if not spans or not spans[0]:
        return None
    base = spans[0][0][0]
    stride = max(hi for _, hi, _ in spans[0]) - base
    offsets = [(lo - base, hi - base, v - base) for lo, hi, v in spans[0]]
    covered = sorted((lo, hi) for lo, hi, _ in offsets)
    at = 0
    for lo, hi in covered:
        if lo != at:
            return None
        at = hi
    for idx, members in enumerate(spans):
        start = base + idx * stride
        if [(lo - start, hi - start, v - start) for lo, hi, v in members] != offsets:
            return None
    return base, stride, [[v for _, _, v in members] for members in spans]


def _flat_shift(flat: tuple[int, int, list], count: Callable, nslot: int, size: int,
                push: bool, general: Prim) -> Prim:
    """push_front / pop_front over a back-to-back stack (see _flat_stack): the same
    result as moving element by element (fields of the elements shifted in keep their
    old values, only their validity is cleared), in one slice assignment; `general`
    is the element-wise shift, kept for a negative count."""
    base, stride, vslots = flat
    end = base + size * stride

    def shift_flat(p, a):
        n = count(p, a)
        if n < 0:
            return general(p, a)      # a shift the other way: the element-wise code
        f = p.f
        if n:
            if n >= size:
                cleared = vslots
            elif push:
                f[base + n * stride:end] = f[base:end - n * stride]
                cleared = vslots[:n]
            else:
                f[base:end - n * stride] = f[base + n * stride:end]
                cleared = vslots[size - n:]
            for members in cleared:
                for vslot in members:
                    f[vslot] = 0
        nxt = f[nslot] + (n if push else -n)
        f[nslot] = min(size, max(0, nxt))
    return shift_flat


class PrimitiveCompiler:
    def __init__(self, ctx: LoadContext, exprs: ExprCompiler,
                 drop_port: int = DROP_PORT) -> None:
        self.ctx = ctx
        self.x = exprs
        self.drop_port = drop_port   # what mark_to_drop writes to egress_spec
        layout = ctx.layout
        self.siblings: dict[int, list[int]] = {}
        for union in layout.unions.values():
            for hid in union.header_ids:
                self.siblings[hid] = [layout.header_by_id[o].valid_slot
                                      for o in union.header_ids if o != hid]
        self.std = layout.std_slots

    # --- helpers ---------------------------------------------------------------
    def _params(self, prim: dict, where: str, count: int | tuple[int, ...]) -> list:
        params = require(prim, "parameters", where, list)
        counts = (count,) if isinstance(count, int) else count
        if len(params) not in counts:
            raise LoadError(where, f"primitive {prim.get('op')!r} takes "
                            f"{' or '.join(map(str, counts))} parameters, got {len(params)}", prim)
        return params

    def _named(self, param: Any, kind: str, table: dict, where: str) -> Any:
        if not isinstance(param, dict) or param.get("type") != kind:
            raise LoadError(where, f"expected a {kind} parameter", param)
        obj = table.get(param.get("value"))
        if obj is None:
            raise LoadError(where, f"unknown {kind} {param.get('value')!r}", param)
        return obj

    def _header_param(self, param: Any, where: str, n_args: int | None):
        return self.x.header(param, where, n_args)

    def _assign(self, dst_json: Any, src: Callable, where: str, n_args: int | None) -> Prim:
        slot_fn, width, slot = self.x.lvalue(dst_json, where, n_args)
        mask = (1 << width) - 1
        if slot is not None:
            src_slot = getattr(src, "slot", None)
            if is_const(src):
                c = src.constant & mask if isinstance(src.constant, int) else int(src.constant)

                def assign_const(p, a):
                    p.f[slot] = c
                if isinstance(c, int):
                    assign_const.statement = f"p.f[{int(slot)}] = {c!r}"  # type: ignore[attr-defined]
                return assign_const
            arg_index = getattr(src, "arg_index", None)
            if arg_index is not None:
                def assign_arg(p, a):
                    p.f[slot] = a[arg_index] & mask
                assign_arg.statement = (  # type: ignore[attr-defined]
                    f"p.f[{int(slot)}] = a[{int(arg_index)}] & {int(mask)}")
                return assign_arg
            if src_slot is not None:
                def assign_field(p, a):
                    f = p.f
                    f[slot] = f[src_slot] & mask
                assign_field.statement = (  # type: ignore[attr-defined]
                    f"p.f[{int(slot)}] = p.f[{int(src_slot)}] & {int(mask)}")
                return assign_field

            source = getattr(src, "source", None)
            if source is not None and len(source) <= MAX_FUSED_SOURCE:
                setter = make_setter(slot, mask, source)
                setter.statement = f"p.f[{int(slot)}] = {source} & {int(mask)}"  # type: ignore[attr-defined]
                if "a[" not in source:      # also callable as a parser op, setter(p)
                    setter.run_without_args = make_setter(  # type: ignore[attr-defined]
                        slot, mask, source, params="p")
                return setter

            def assign(p, a):
                p.f[slot] = src(p, a) & mask
            return assign

        def assign_dyn(p, a):
            p.f[slot_fn(p, a)] = src(p, a) & mask
        return assign_dyn

    def _int_param(self, param: Any, where: str, n_args: int | None) -> Callable:
        return self.x.data(param, where, n_args)

    # --- the primitives --------------------------------------------------------
    def compile(self, prim: Any, where: str, n_args: int | None) -> Prim:
        if not isinstance(prim, dict) or not isinstance(prim.get("op"), str):
            raise LoadError(where, "a primitive needs an 'op' string", prim)
        op = prim["op"]
        source = prim.get("source_info", {}) or {}
        frag = source.get("source_fragment") if isinstance(source, dict) else None
        where = f"{where}, primitive {op}" + (f" ({frag})" if frag else "")
        method = getattr(self, "_p_" + op.lstrip("_"), None)
        if method is None:
            raise LoadError(where, f"unknown primitive {op!r}", prim)
        return method(prim, where, n_args)

    def _p_assign(self, prim, where, n_args):
        dst, src = self._params(prim, where, 2)
        if isinstance(dst, dict) and dst.get("type") == "header":
            return self._p_assign_header(prim, where, n_args)
        return self._assign(dst, self.x.data(src, where, n_args), where, n_args)

    def _p_assign_VL(self, prim, where, n_args):
        dst, src = self._params(prim, where, 2)
        _, _, dslot = self.x.lvalue(dst, where, n_args)
        _, _, sslot = self.x.lvalue(src, where, n_args)
        dinfo = self._field_header(dst, where)
        sinfo = self._field_header(src, where)

        def assign_vl(p, a):
            f = p.f
            f[dslot] = f[sslot]
            f[dinfo.vl_width_slot] = f[sinfo.vl_width_slot]
        return assign_vl

    def _field_header(self, param, where) -> HeaderInfo:
        value = param.get("value") if isinstance(param, dict) else None
        info = self.ctx.layout.header_by_name.get(value[0]) if isinstance(value, list) else None
        if info is None or info.varbit_index is None:
            raise LoadError(where, "assign_VL needs varbit fields", param)
        return info

    def _p_assign_header(self, prim, where, n_args):
        dst_p, src_p = self._params(prim, where, 2)
        dst = self._header_param(dst_p, where, n_args)
        src = self._header_param(src_p, where, n_args)
        siblings = self.siblings

        def assign_header(p, a):
            d, s = dst(p, a), src(p, a)
            f = p.f
            if not f[s.valid_slot]:
                f[d.valid_slot] = 0
                return
            n = s.n_slots
            f[d.base:d.base + n] = f[s.base:s.base + n]
            for slot in siblings.get(d.hid, ()):
                f[slot] = 0
        return assign_header

    def _p_assign_union(self, prim, where, n_args):
        dst_p, src_p = self._params(prim, where, 2)
        dst = self._named(dst_p, "header_union", self.ctx.layout.unions, where)
        src = self._named(src_p, "header_union", self.ctx.layout.unions, where)
        pairs = [(self.ctx.layout.header_by_id[d], self.ctx.layout.header_by_id[s])
                 for d, s in zip(dst.header_ids, src.header_ids)]

        def assign_union(p, a):
            f = p.f
            for d, s in pairs:
                if f[s.valid_slot]:
                    f[d.base:d.base + d.n_slots] = f[s.base:s.base + s.n_slots]
                else:
                    f[d.valid_slot] = 0
        return assign_union

    def _p_assign_header_stack(self, prim, where, n_args):
        dst_p, src_p = self._params(prim, where, 2)
        dst = self._named(dst_p, "header_stack", self.ctx.layout.stacks, where)
        src = self._named(src_p, "header_stack", self.ctx.layout.stacks, where)
        by_id = self.ctx.layout.header_by_id
        pairs = [(by_id[d], by_id[s]) for d, s in zip(dst.header_ids, src.header_ids)]
        return _stack_copy(dst.next_slot, src.next_slot, pairs)

    def _stack_elements(self, param: Any, where: str) -> tuple[list[list[HeaderInfo]], int]:
        """The elements of a header_stack (one header each) or header_union_stack (its
        members each) operand, and the slot of its `next` index."""
        layout = self.ctx.layout
        by_id = layout.header_by_id
        if isinstance(param, dict) and param.get("type") == "header_union_stack":
            ustack = self._named(param, "header_union_stack", layout.union_stacks, where)
            return ([[by_id[h] for h in u.header_ids] for u in ustack.unions],
                    ustack.next_slot)
        stack = self._named(param, "header_stack", layout.stacks, where)
        return [[by_id[h]] for h in stack.header_ids], stack.next_slot

    def _stack_shift(self, prim, where, n_args, push: bool) -> Prim:
        """push_front / pop_front: move whole elements (every member of a union) by
        `count`; the elements shifted in are invalid; `next` moves within [0, size]."""
        stack_p, count_p = self._params(prim, where, 2)
        elements, nslot = self._stack_elements(stack_p, where)
        count = self._int_param(count_p, where, n_args)
        spans = [[(i.base, i.base + i.n_slots, i.valid_slot) for i in members]
                 for members in elements]
        size = len(spans)

        def shift(p, a):
            n = count(p, a)
            f = p.f
            saved = [[f[lo:hi] for lo, hi, _ in members] for members in spans]
            for idx, members in enumerate(spans):
                src = idx - n if push else idx + n
                if 0 <= src < size:
                    for (lo, hi, _), values in zip(members, saved[src]):
                        f[lo:hi] = values
                else:
                    for _, _, vslot in members:
                        f[vslot] = 0
            nxt = f[nslot] + (n if push else -n)
            f[nslot] = min(size, max(0, nxt))
        flat = _flat_stack(spans)
        if flat is not None:
            return _flat_shift(flat, count, nslot, size, push, shift)
        return shift

    def _p_assign_union_stack(self, prim, where, n_args):
        """Copy a header-union stack element by element (validity included) and its
        `next` index, as assign_header_stack does for header stacks."""
        dst_p, src_p = self._params(prim, where, 2)
        stacks = self.ctx.layout.union_stacks
        dst = self._named(dst_p, "header_union_stack", stacks, where)
        src = self._named(src_p, "header_union_stack", stacks, where)
        if len(dst.unions) != len(src.unions) or dst.member_names != src.member_names:
            raise LoadError(where, f"header union stacks {dst.name!r} and {src.name!r} "
                            "differ in size or union type", prim)
        by_id = self.ctx.layout.header_by_id
        pairs = [(by_id[d], by_id[s]) for du, su in zip(dst.unions, src.unions)
                 for d, s in zip(du.header_ids, su.header_ids)]
        return _stack_copy(dst.next_slot, src.next_slot, pairs)

    def _p_push(self, prim, where, n_args):
        return self._stack_shift(prim, where, n_args, push=True)

    def _p_pop(self, prim, where, n_args):
        return self._stack_shift(prim, where, n_args, push=False)

    def _p_add_header(self, prim, where, n_args):
        (hp,) = self._params(prim, where, 1)
        header = self._header_param(hp, where, n_args)
        static = getattr(header, "static", None)
        if static is not None:
            return _set_valid(static, self.siblings.get(static.hid, []))
        siblings = self.siblings

        def add_header_dyn(p, a):
            info = header(p, a)
            _set_valid(info, siblings.get(info.hid, []))(p, a)
        return add_header_dyn

    def _p_remove_header(self, prim, where, n_args):
        (hp,) = self._params(prim, where, 1)
        header = self._header_param(hp, where, n_args)
        static = getattr(header, "static", None)
        if static is not None:
            vslot = static.valid_slot

            def remove_header(p, a):
                p.f[vslot] = 0
            return remove_header

        def remove_header_dyn(p, a):
            p.f[header(p, a).valid_slot] = 0
        return remove_header_dyn

    def _p_mark_to_drop(self, prim, where, n_args):
        self._params(prim, where, (0, 1))
        espec, mgrp = self.std.get("egress_spec"), self.std.get("mcast_grp")
        if espec is None:
            raise LoadError(where, "mark_to_drop needs standard_metadata.egress_spec", prim)
        drop_port = self.drop_port

        def mark_to_drop(p, a):
            p.f[espec] = drop_port
            if mgrp is not None:
                p.f[mgrp] = 0
        return mark_to_drop

    _p_drop = _p_mark_to_drop

    def _p_no_op(self, prim, where, n_args):
        return lambda p, a: None

    def _p_exit(self, prim, where, n_args):
        self._params(prim, where, 0)

        def exit_(p, a):
            p.arch.exit_called = True
            raise ExitPipeline()
        return exit_

    def _p_modify_field_with_hash_based_offset(self, prim, where, n_args):
        dst, base_p, calc_p, size_p = self._params(prim, where, 4)
        calc = self._named(calc_p, "calculation", self.ctx.calculations, where)
        base = self._int_param(base_p, where, n_args)
        size = self._int_param(size_p, where, n_args)
        compute = calc.compute

        def value(p, a):
            n = size(p, a)
            if n <= 0:
                raise PipelineFault(f"{where}: hash size must be positive, got {n}")
            return base(p, a) + compute(p) % n
        return self._assign(dst, value, where, n_args)

    def _p_modify_field_rng_uniform(self, prim, where, n_args):
        dst, lo_p, hi_p = self._params(prim, where, 3)
        lo, hi = self._int_param(lo_p, where, n_args), self._int_param(hi_p, where, n_args)
        rng = self.ctx.rng

        def value(p, a):
            low, high = lo(p, a), hi(p, a)
            return low if high <= low else rng.randint(low, high)
        return self._assign(dst, value, where, n_args)

    def _arch_request(self, prim, where, n_args, kind: str) -> Prim:
        counts = {"clone_i2e": (1, 2), "clone_e2e": (1, 2), "resubmit": (0, 1),
                  "recirculate": (0, 1)}[kind]
        params = self._params(prim, where, counts)
        if kind.startswith("clone"):
            session = self._int_param(params[0], where, n_args)
            flist = self._int_param(params[1], where, n_args) if len(params) > 1 else None

            def clone(p, a):
                p.arch.clone_session = session(p, a)
                p.arch.clone_field_list = flist(p, a) if flist else None
            return clone
        flist = self._int_param(params[0], where, n_args) if params else None
        if kind == "resubmit":
            def resubmit(p, a):
                p.arch.resubmit_field_list = flist(p, a) if flist else 0
            return resubmit

        def recirculate(p, a):
            p.arch.recirculate_field_list = flist(p, a) if flist else 0
        return recirculate

    def _p_clone_ingress_pkt_to_egress(self, prim, where, n_args):
        return self._arch_request(prim, where, n_args, "clone_i2e")

    def _p_clone_egress_pkt_to_egress(self, prim, where, n_args):
        return self._arch_request(prim, where, n_args, "clone_e2e")

    def _p_resubmit(self, prim, where, n_args):
        return self._arch_request(prim, where, n_args, "resubmit")

    def _p_recirculate(self, prim, where, n_args):
        return self._arch_request(prim, where, n_args, "recirculate")

    def _p_truncate(self, prim, where, n_args):
        (length_p,) = self._params(prim, where, 1)
        length = self._int_param(length_p, where, n_args)

        def truncate(p, a):
            # BMv2 (bm_sim Packet::truncate) keeps the smallest length asked for.
            n = length(p, a)
            current = p.arch.truncate_length
            p.arch.truncate_length = n if current is None else min(current, n)
        return truncate

    def _p_count(self, prim, where, n_args):
        arr_p, index_p = self._params(prim, where, 2)
        counter = self._named(arr_p, "counter_array", self.ctx.counters, where)
        index = self._int_param(index_p, where, n_args)
        count = counter.count

        def count_(p, a):
            count(index(p, a), p.ingress_length)
        return count_

    def _p_execute_meter(self, prim, where, n_args):
        arr_p, index_p, dst = self._params(prim, where, 3)
        meter = self._named(arr_p, "meter_array", self.ctx.meters, where)
        index = self._int_param(index_p, where, n_args)
        execute = meter.execute
        return self._assign(dst, lambda p, a: execute(index(p, a), p.ingress_length),
                            where, n_args)

    def _p_register_read(self, prim, where, n_args):
        dst, arr_p, index_p = self._params(prim, where, 3)
        reg = self._named(arr_p, "register_array", self.ctx.registers, where)
        index = self._int_param(index_p, where, n_args)
        read = reg.read_checked
        return self._assign(dst, lambda p, a: read(index(p, a)), where, n_args)

    def _p_register_write(self, prim, where, n_args):
        arr_p, index_p, src_p = self._params(prim, where, 3)
        reg = self._named(arr_p, "register_array", self.ctx.registers, where)
        index = self._int_param(index_p, where, n_args)
        src = self._int_param(src_p, where, n_args)
        write = reg.write_checked

        def register_write(p, a):
            write(index(p, a), src(p, a))
        return register_write

    def _p_generate_digest(self, prim, where, n_args):
        _, list_p = self._params(prim, where, 2)
        list_id = self._int_param(list_p, where, n_args)
        if not is_const(list_id) or list_id.constant not in self.ctx.learn_lists:
            raise LoadError(where, "generate_digest needs a known learn list id", prim)
        name, slots = self.ctx.learn_lists[list_id.constant]

        def generate_digest(p, a):
            f = p.f
            p.arch.digests.append((name, tuple(f[s] for s in slots)))
        return generate_digest

    def _p_log_msg(self, prim, where, n_args):
        fmt_p, vec_p = self._params(prim, where, 2)
        if not isinstance(fmt_p, dict) or fmt_p.get("type") != "string":
            raise LoadError(where, "log_msg needs a string format", prim)
        if not isinstance(vec_p, dict) or vec_p.get("type") != "parameters_vector":
            raise LoadError(where, "log_msg needs a parameters_vector", prim)
        fmt = fmt_p.get("value", "")
        values = [self.x.data(v, where, n_args) for v in vec_p.get("value", [])]
        logger = self.ctx.logger
        parts = fmt.split("{}")

        def log_msg(p, a):
            out = [parts[0]]
            for i, part in enumerate(parts[1:]):
                out.append(str(values[i](p, a)) if i < len(values) else "{}")
                out.append(part)
            logger.info("".join(out))
        return log_msg

    def _check(self, prim, where, n_args, what: str) -> Prim:
        (cond_p,) = self._params(prim, where, 1)
        cond = self.x.data(cond_p, where, n_args)
        message = f"{what} failed: {where}"

        def check(p, a):
            if not cond(p, a):
                raise PipelineFault(message)
        return check

    def _p_assert(self, prim, where, n_args):
        return self._check(prim, where, n_args, "assert")

    def _p_assume(self, prim, where, n_args):
        return self._check(prim, where, n_args, "assume")

    def _p_jump(self, prim, where, n_args):
        (offset_p,) = self._params(prim, where, 1)
        offset = self._int_param(offset_p, where, n_args)
        fn = lambda p, a: offset(p, a)  # noqa: E731
        fn.jump = "always"
        return fn

    def _p_jump_if_zero(self, prim, where, n_args):
        cond_p, offset_p = self._params(prim, where, 2)
        cond = self.x.data(cond_p, where, n_args)
        offset = self._int_param(offset_p, where, n_args)

        def jump_if_zero(p, a):
            return offset(p, a) if not cond(p, a) else None
        jump_if_zero.jump = "if_zero"
        return jump_if_zero


def compile_action(ctx: LoadContext, prims: PrimitiveCompiler, action: dict) -> ActionFn:
    name = require(action, "name", "actions", str)
    action_id = require(action, "id", f"actions[{name}]", int)
    where = f"action {name} (id {action_id})"
    runtime_data = require(action, "runtime_data", where, list)
    names, widths = [], []
    for rd in runtime_data:
        names.append(require(rd, "name", where, str))
        width = require(rd, "bitwidth", where, int)
        widths.append(width)
    body = [prims.compile(p, where, len(runtime_data))
            for p in require(action, "primitives", where, list)]
    if any(hasattr(fn, "jump") for fn in body):
        run = _run_with_jumps(body, where)
    elif not body:
        def run(p, a):
            return None
    elif len(body) == 1:
        run = body[0]
    else:
        run = make_action_body(body)     # the steps in order, assignments inlined
    return ActionFn(name, action_id, names, widths, run)


def _run_with_jumps(body: list, where: str) -> Callable:
    size = len(body)

    def run(p, a):
        i = 0
        budget = 100000
        while i < size:
            step = body[i]
            target = step(p, a)
            if target is not None and hasattr(step, "jump"):
                i = target
                budget -= 1
                if budget <= 0:
                    raise PipelineFault(f"{where}: jump loop did not terminate")
            else:
                i += 1
    return run


__all__ = ["ActionFn", "PrimitiveCompiler", "compile_action", "DROP_PORT"]


def _stack_copy(dst_next: int, src_next: int,
                pairs: list[tuple[HeaderInfo, HeaderInfo]]) -> Prim:
    """Copies a stack (of headers, or of unions' members): its `next` index, and each
    (destination, source) header's contents, or its invalidity."""
    def copy_stack(p: Any, a: Any) -> None:
        f = p.f
        f[dst_next] = f[src_next]
        for d, s in pairs:
            if f[s.valid_slot]:
                f[d.base:d.base + d.n_slots] = f[s.base:s.base + s.n_slots]
            else:
                f[d.valid_slot] = 0
    return copy_stack
