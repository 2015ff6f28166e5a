"""Compile BMv2 JSON expressions (type-value objects) into closures fn(pkt, args).

Data values are unbounded Python ints (p4c emits explicit masks), booleans are
Python bools, as in bm_sim's expression engine. Header-valued expressions compile to
closures returning a HeaderInfo; field lvalues to (slot closure, width).  A closure
whose value is a plain Python expression over fields, constants and action data
carries it as `.source`; an operator over such operands is fused into one generated
function (loader_codegen.make_expression) with exactly the closures' semantics.
"""
from __future__ import annotations

from typing import Any, Callable, Protocol, TypeGuard

from p4sim.switch.errors import LoadError, PipelineFault
from p4sim.switch.loader import LoadContext, parse_hexstr
from p4sim.switch.loader_codegen import FUSABLE_BINARY, make_expression
from p4sim.switch.loader_layout import field_slot
from p4sim.switch.packet import HeaderInfo, StackInfo, UnionInfo, UnionStackInfo

Expr = Callable[[Any, Any], Any]

_BINARY: dict[str, Callable[[Any, Any], Any]] = {
    "+": lambda x, y: x + y,
    "-": lambda x, y: x - y,
    "*": lambda x, y: x * y,
    "/": lambda x, y: x // y,
    "%": lambda x, y: x % y,
    "<<": lambda x, y: x << y,
    ">>": lambda x, y: x >> y,
    "==": lambda x, y: x == y,
    "!=": lambda x, y: x != y,
    ">": lambda x, y: x > y,
    ">=": lambda x, y: x >= y,
    "<": lambda x, y: x < y,
    "<=": lambda x, y: x <= y,
    "&": lambda x, y: x & y,
    "|": lambda x, y: x | y,
    "^": lambda x, y: x ^ y,
}


def _const(value: Any) -> Expr:
    def const(p, a):
        return value
    const.constant = value  # type: ignore[attr-defined]
    if isinstance(value, bool):
        const.source = repr(value)  # type: ignore[attr-defined]
    elif isinstance(value, int):
        const.source = f"({value!r})"  # type: ignore[attr-defined]
    return const


def _source(fn: Expr) -> str | None:
    return getattr(fn, "source", None)


def _fused(template: str, *operands: Expr) -> Expr | None:
    """The operator `template` ({0}, {1}... for the operands) as one generated
    function, when every operand has a source; None otherwise."""
    sources = [_source(fn) for fn in operands]
    if any(src is None for src in sources):
        return None
    return make_expression("(" + template.format(*sources) + ")")


def _tagged(fn: Expr, source: str) -> Expr:
    """A hand-written closure that also says what it computes, for fusing parents."""
    fn.source = source  # type: ignore[attr-defined]
    return fn


class ConstExpr(Protocol):
    """An expression closure made by _const: its value is known at load time."""

    constant: Any

    def __call__(self, p: Any, a: Any, /) -> Any: ...


def is_const(fn: Expr) -> TypeGuard[ConstExpr]:
    return hasattr(fn, "constant")


def _with_test(fn: Expr, slot: int, mask: int, value: int, equal: bool) -> Expr:
    """Tag a boolean expression with the field test it is: (f[slot] & mask) == value
    (or != when not `equal`), so that a conditional node can evaluate it inline."""
    fn.test = (slot, mask, value, equal)  # type: ignore[attr-defined]
    return fn


def _read_field(slot: int, width: int, signed: bool) -> Expr:
    if signed:
        top = 1 << (width - 1)
        full = 1 << width

        def read_signed(p, a):
            v = p.f[slot]
            return v - full if v & top else v
        return read_signed

    def read(p, a):
        return p.f[slot]
    read.slot = slot  # type: ignore[attr-defined]
    read.source = f"p.f[{int(slot)}]"  # type: ignore[attr-defined]
    return read


def two_comp_mod(value: int, width: int) -> int:
    """The signed value of `value` in `width`-bit two's complement."""
    if width <= 0:
        return 0
    half = 1 << (width - 1)
    return ((value + half) % (1 << width)) - half


def sat_cast(value: int, width: int) -> int:
    lo, hi = -(1 << (width - 1)), (1 << (width - 1)) - 1
    return lo if value < lo else hi if value > hi else value


def usat_cast(value: int, width: int) -> int:
    hi = (1 << width) - 1
    return 0 if value < 0 else hi if value > hi else value


def _unwrap(node: Any, where: str) -> dict:
    """Strip the nested {"type": "expression", "value": ...} wrappers: what is left is
    either an operator object (with 'op') or a plain operand such as a field, which p4c
    also wraps (e.g. the length argument of a parser's extract_VL)."""
    cur = node
    while isinstance(cur, dict) and cur.get("type") == "expression" and "op" not in cur:
        cur = cur.get("value")
    if not isinstance(cur, dict) or ("op" not in cur and "type" not in cur):
        raise LoadError(where, "expected an expression object with 'op' or a typed operand",
                        node)
    return cur


class ExprCompiler:
    """Compiles expressions of one program; `n_args` bounds runtime_data/local indices."""

    def __init__(self, ctx: LoadContext) -> None:
        self.ctx = ctx

    # --- data values -----------------------------------------------------------
    def data(self, node: Any, where: str, n_args: int | None = None) -> Expr:
        """Compile a type-value object producing a data value or a boolean."""
        if not isinstance(node, dict) or "type" not in node:
            if isinstance(node, dict) and "op" in node:
                return self._op(node, where, n_args)
            raise LoadError(where, "expected a {type, value} object", node)
        kind = node["type"]
        value = node.get("value")
        if kind == "field":
            slot, width, signed, _ = field_slot(self.ctx, value, where, node)
            return _read_field(slot, width, signed)
        if kind == "hexstr":
            return _const(parse_hexstr(value, where, node))
        if kind == "bool":
            if not isinstance(value, bool):
                raise LoadError(where, "bool value must be true or false", node)
            return _const(value)
        if kind in ("runtime_data", "local"):
            if not isinstance(value, int) or value < 0:
                raise LoadError(where, f"{kind} index must be a non-negative integer", node)
            if n_args is None:
                raise LoadError(where, f"{kind} used outside of an action", node)
            if value >= n_args:
                raise LoadError(where, f"{kind} index {value} out of range "
                                f"(the action has {n_args} parameters)", node)
            index = value

            def arg(p, a):
                return a[index]
            arg.arg_index = index  # type: ignore[attr-defined]
            arg.source = f"a[{int(index)}]"  # type: ignore[attr-defined]
            return arg
        if kind == "expression":
            inner = _unwrap(node, where)
            if "op" in inner:
                return self._op(inner, where, n_args)
            return self.data(inner, where, n_args)
        if kind == "stack_field":
            return self._stack_field(node, where)
        if kind == "union_stack_field":
            return self._union_stack_field(node, where)
        if kind == "register":
            return self._register_read(node, where, n_args)
        if kind == "string":
            if not isinstance(value, str):
                raise LoadError(where, "string value must be a string", node)
            return _const(value)
        if kind == "header":
            # a header used as data: its validity (rare; bm_sim allows it in 'valid')
            info = self.header_info(value, where, node)
            vslot = info.valid_slot

            def header_valid(p, a):
                return p.f[vslot]
            return _tagged(header_valid, f"p.f[{int(vslot)}]")
        raise LoadError(where, f"unsupported operand type {kind!r}", node)

    def boolean(self, node: Any, where: str, n_args: int | None = None) -> Expr:
        return self.data(node, where, n_args)

    def _stack_field_slots(self, node: dict, where: str) -> tuple[Any, list[int], int]:
        """Resolve ``stack.last.field`` at load time: (stack, the field's slot in each
        element, its width); the element is only known per packet, from next_slot."""
        value = node.get("value")
        if not isinstance(value, list) or len(value) != 2:
            raise LoadError(where, "stack_field must be [stack, field]", node)
        stack = self.stack_info(value[0], where, node)
        first = self.ctx.layout.header_by_id[stack.header_ids[0]]
        if value[1] not in first.field_names:
            raise LoadError(where, f"stack {value[0]!r} has no field {value[1]!r}", node)
        idx = first.field_names.index(value[1])
        slots = [self.ctx.layout.header_by_id[h].base + idx for h in stack.header_ids]
        return stack, slots, first.widths[idx]

    def _stack_field(self, node: dict, where: str) -> Expr:
        stack, slots, _ = self._stack_field_slots(node, where)
        return _last_element_field(slots, stack.next_slot, f"stack {stack.name}")

    def _union_stack_field(self, node: dict, where: str) -> Expr:
        """``ustack.last.member.field`` (p4c uses it in transition keys): the field of
        `member` in the element before `next`."""
        value = node.get("value")
        if (not isinstance(value, list) or len(value) != 3
                or not all(isinstance(v, str) for v in value)):
            raise LoadError(where, "union_stack_field must be [union stack, member, field]",
                            node)
        ustack = self.union_stack_info(value[0], where, node)
        try:
            ids = ustack.member_ids(value[1])
        except KeyError:
            raise LoadError(where, f"header union stack {value[0]!r} has no member "
                            f"{value[1]!r}", node) from None
        first = self.ctx.layout.header_by_id[ids[0]]
        if value[2] not in first.field_names:
            raise LoadError(where, f"member {value[1]!r} of {value[0]!r} has no field "
                            f"{value[2]!r}", node)
        idx = first.field_names.index(value[2])
        slots = [self.ctx.layout.header_by_id[h].base + idx for h in ids]
        return _last_element_field(slots, ustack.next_slot,
                                   f"header union stack {ustack.name}")

    def _register_read(self, node: dict, where: str, n_args: int | None) -> Expr:
        value = node.get("value")
        if not isinstance(value, list) or len(value) != 2:
            raise LoadError(where, "register operand must be [register_array, index]", node)
        reg = self.ctx.registers.get(value[0])
        if reg is None:
            raise LoadError(where, f"unknown register_array {value[0]!r}", node)
        index = self.data(value[1], where, n_args)
        return lambda p, a: reg.read_checked(index(p, a))

    # --- headers and stacks ----------------------------------------------------
    def header_info(self, name: Any, where: str, fragment: Any) -> HeaderInfo:
        info = self.ctx.layout.header_by_name.get(name) if isinstance(name, str) else None
        if info is None:
            raise LoadError(where, f"unknown header instance {name!r}", fragment)
        return info

    def stack_info(self, name: Any, where: str, fragment: Any) -> StackInfo:
        stack = self.ctx.layout.stacks.get(name) if isinstance(name, str) else None
        if stack is None:
            raise LoadError(where, f"unknown header stack {name!r}", fragment)
        return stack

    def union_stack_info(self, name: Any, where: str, fragment: Any) -> UnionStackInfo:
        ustack = self.ctx.layout.union_stacks.get(name) if isinstance(name, str) else None
        if ustack is None:
            raise LoadError(where, f"unknown header union stack {name!r}", fragment)
        return ustack

    def _next_slot(self, node: Any, where: str, fragment: Any) -> int:
        """The `next` slot of a header_stack or header_union_stack operand."""
        if isinstance(node, dict) and node.get("type") == "header_union_stack":
            return self.union_stack_info(node.get("value"), where, fragment).next_slot
        return self.stack_info((node or {}).get("value"), where, fragment).next_slot

    def union(self, node: Any, where: str,
              n_args: int | None = None) -> Callable[[Any, Any], UnionInfo]:
        """Compile a header-union operand: a named union or an element of a header-union
        stack (``dereference_union_stack``, its index known per packet)."""
        if isinstance(node, dict) and node.get("type") == "header_union":
            name = node.get("value")
            union = self.ctx.layout.unions.get(name) if isinstance(name, str) else None
            if union is None:
                raise LoadError(where, f"unknown header union {node.get('value')!r}", node)
            fn = lambda p, a: union  # noqa: E731
            fn.static = union  # type: ignore[attr-defined]
            return fn
        if isinstance(node, dict) and (node.get("type") == "expression" or "op" in node):
            op = _unwrap(node, where)
            if "op" not in op:
                return self.union(op, where, n_args)
            if op.get("op") == "dereference_union_stack":
                left = op.get("left")
                if not isinstance(left, dict) or left.get("type") != "header_union_stack":
                    raise LoadError(where, "dereference_union_stack needs a "
                                    "header_union_stack on the left", node)
                ustack = self.union_stack_info(left.get("value"), where, node)
                unions = ustack.unions
                index = self.data(op.get("right"), where, n_args)
                size = len(unions)

                def deref_union(p, a):
                    i = index(p, a)
                    if not 0 <= i < size:
                        raise PipelineFault(
                            f"index {i} out of bounds for header union stack {ustack.name}")
                    return unions[i]
                deref_union.sample = unions[0]  # type: ignore[attr-defined]
                return deref_union
        raise LoadError(where, "expected a header union", node)

    def header(self, node: Any, where: str, n_args: int | None = None) -> Callable[[Any, Any], HeaderInfo]:
        """Compile a header-valued operand: a named header or a stack dereference."""
        if isinstance(node, dict) and node.get("type") == "header":
            info = self.header_info(node.get("value"), where, node)
            fn = lambda p, a: info  # noqa: E731
            fn.static = info  # type: ignore[attr-defined]
            return fn
        if isinstance(node, dict) and (node.get("type") == "expression" or "op" in node):
            op = _unwrap(node, where)
            if "op" not in op:
                return self.header(op, where, n_args)
            if op.get("op") == "dereference_header_stack":
                stack = self.stack_info((op.get("left") or {}).get("value"), where, node)
                infos = [self.ctx.layout.header_by_id[h] for h in stack.header_ids]
                index = self.data(op.get("right"), where, n_args)
                size = len(infos)

                def deref(p, a):
                    i = index(p, a)
                    if not 0 <= i < size:
                        raise PipelineFault(f"index {i} out of bounds for stack {stack.name}")
                    return infos[i]
                deref.sample = infos[0]  # type: ignore[attr-defined]  # all share one type
                return deref
            if op.get("op") == "access_union_header":
                return self._union_member(op, where, n_args, node)
        raise LoadError(where, "expected a header", node)

    def _union_member(self, op: dict, where: str, n_args: int | None,
                      node: Any) -> Callable[[Any, Any], HeaderInfo]:
        """``access_union_header``: member number `right` of a union operand."""
        union = self.union(op.get("left"), where, n_args)
        offset = op.get("right")
        sample_union = getattr(union, "static", None) or getattr(union, "sample")
        if (not isinstance(offset, int) or isinstance(offset, bool)
                or not 0 <= offset < len(sample_union.header_ids)):
            raise LoadError(where, f"union member offset {offset!r} out of range", node)
        by_id = self.ctx.layout.header_by_id
        static_union = getattr(union, "static", None)
        if static_union is not None:
            info = by_id[static_union.header_ids[offset]]
            fn = lambda p, a: info  # noqa: E731
            fn.static = info  # type: ignore[attr-defined]
            return fn
        members = {u.name: by_id[u.header_ids[offset]]
                   for u in self.ctx.layout.unions.values()
                   if len(u.header_ids) > offset}

        def member(p, a):
            return members[union(p, a).name]
        member.sample = by_id[sample_union.header_ids[offset]]  # type: ignore[attr-defined]
        return member

    def lvalue(self, node: Any, where: str, n_args: int | None = None) -> tuple[Callable, int, int | None]:
        """Compile a writable field: (slot closure, width, constant slot or None)."""
        if isinstance(node, dict) and node.get("type") == "field":
            slot, width, _, info = field_slot(self.ctx, node.get("value"), where, node)
            if slot == info.valid_slot and not info.metadata:
                raise LoadError(where, "$valid$ is read-only", node)
            return (lambda p, a: slot), width, slot
        if isinstance(node, dict) and node.get("type") == "stack_field":
            stack, slots, width = self._stack_field_slots(node, where)
            next_slot = stack.next_slot

            def last_slot(p, a):
                n = p.f[next_slot]
                if n == 0:
                    raise PipelineFault(f"stack {stack.name}: no valid element for .last")
                return slots[n - 1]
            return last_slot, width, None
        if isinstance(node, dict) and (node.get("type") == "expression" or "op" in node):
            op = _unwrap(node, where)
            if "op" not in op:
                return self.lvalue(op, where, n_args)
            if op.get("op") == "access_field":
                header = self.header(op.get("left"), where, n_args)
                offset = op.get("right")
                widths = self._access_field_widths(header, offset, where, node)

                def access_slot(p, a):
                    return header(p, a).base + offset
                return access_slot, widths, None
        raise LoadError(where, "expected a writable field", node)

    def _access_field_widths(self, header, offset: Any, where: str, node: Any) -> int:
        if not isinstance(offset, int):
            raise LoadError(where, "access_field offset must be an integer", node)
        sample = getattr(header, "static", None) or getattr(header, "sample", None)
        if sample is None or offset >= len(sample.field_names):
            raise LoadError(where, f"field offset {offset} out of range", node)
        return sample.widths[offset]

    # --- operators -------------------------------------------------------------
    def _op(self, op: dict, where: str, n_args: int | None) -> Expr:
        name = op.get("op")
        left, right = op.get("left"), op.get("right")
        if name in _BINARY:
            if left is None and name == "-":
                r = self.data(right, where, n_args)
                return _fused("-{0}", r) or (lambda p, a: -r(p, a))
            lf = self.data(left, where, n_args)
            rf = self.data(right, where, n_args)
            return _binary(name, lf, rf)
        if name == "and":
            lf, rf = self.data(left, where, n_args), self.data(right, where, n_args)
            return (_fused("bool({0}) and bool({1})", lf, rf)
                    or (lambda p, a: bool(lf(p, a)) and bool(rf(p, a))))
        if name == "or":
            lf, rf = self.data(left, where, n_args), self.data(right, where, n_args)
            return (_fused("bool({0}) or bool({1})", lf, rf)
                    or (lambda p, a: bool(lf(p, a)) or bool(rf(p, a))))
        if name == "not":
            rf = self.data(right, where, n_args)
            negated = _fused("not {0}", rf) or (lambda p, a: not rf(p, a))
            test = getattr(rf, "test", None)
            if test is not None:
                return _with_test(negated, test[0], test[1], test[2], not test[3])
            return negated
        if name == "~":
            rf = self.data(right, where, n_args)
            return _fused("~{0}", rf) or (lambda p, a: ~rf(p, a))
        if name == "d2b":
            rf = self.data(right, where, n_args)
            slot = getattr(rf, "slot", None)
            if slot is not None:
                return _with_test(_tagged(lambda p, a: p.f[slot] != 0,
                                          f"(p.f[{int(slot)}] != 0)"), slot, -1, 0, False)
            return _fused("{0} != 0", rf) or (lambda p, a: rf(p, a) != 0)
        if name == "b2d":
            rf = self.data(right, where, n_args)
            if is_const(rf):
                return _const(int(rf.constant))
            return _fused("1 if {0} else 0", rf) or (lambda p, a: 1 if rf(p, a) else 0)
        if name == "valid":
            header = self.header(right, where, n_args)
            static = getattr(header, "static", None)
            if static is not None:
                vslot = static.valid_slot
                return _tagged(lambda p, a: p.f[vslot] == 1, f"(p.f[{int(vslot)}] == 1)")
            return lambda p, a: p.f[header(p, a).valid_slot] == 1
        if name == "valid_union":
            if not isinstance(right, dict):
                raise LoadError(where, "valid_union needs a header_union", op)
            union = self.union(right, where, n_args)
            static = getattr(union, "static", None)
            by_id = self.ctx.layout.header_by_id
            if static is not None:
                vslots = [by_id[h].valid_slot for h in static.header_ids]
                return lambda p, a: any(p.f[s] for s in vslots)
            slots_of = {u.name: [by_id[h].valid_slot for h in u.header_ids]
                        for u in self.ctx.layout.unions.values()}
            return lambda p, a: any(p.f[s] for s in slots_of[union(p, a).name])
        if name in ("two_comp_mod", "sat_cast", "usat_cast"):
            lf, rf = self.data(left, where, n_args), self.data(right, where, n_args)
            fn = {"two_comp_mod": two_comp_mod, "sat_cast": sat_cast, "usat_cast": usat_cast}[name]
            return lambda p, a: fn(lf(p, a), rf(p, a))
        if name == "?":
            cond = self.data(op.get("cond"), where, n_args)
            lf, rf = self.data(left, where, n_args), self.data(right, where, n_args)
            return (_fused("{1} if {0} else {2}", cond, lf, rf)
                    or (lambda p, a: lf(p, a) if cond(p, a) else rf(p, a)))
        if name in ("last_stack_index", "size_stack"):
            next_slot = self._next_slot(right, where, op)
            if name == "size_stack":
                return _tagged(lambda p, a: p.f[next_slot], f"p.f[{int(next_slot)}]")
            return _tagged(lambda p, a: p.f[next_slot] - 1, f"(p.f[{int(next_slot)}] - 1)")
        if name == "access_field":
            header = self.header(left, where, n_args)
            offset = right
            width = self._access_field_widths(header, offset, where, op)
            sample = getattr(header, "static", None) or getattr(header, "sample", None)
            # _access_field_widths refused a non-int offset and a header without a sample
            assert isinstance(offset, int) and sample is not None
            if sample.signed[offset]:
                top, full = 1 << (width - 1), 1 << width

                def access_signed(p, a):
                    v = p.f[header(p, a).base + offset]
                    return v - full if v & top else v
                return access_signed
            return lambda p, a: p.f[header(p, a).base + offset]
        if name in ("dereference_header_stack", "dereference_union_stack",
                    "access_union_header"):
            raise LoadError(where, f"{name} gives a header or union, not a value here", op)
        raise LoadError(where, f"unknown expression op {name!r}", op)


def _binary(name: str, lf: Expr, rf: Expr) -> Expr:
    fn = _BINARY[name]
    if is_const(lf) and is_const(rf):
        return _const(fn(lf.constant, rf.constant))
    special = _binary_special(name, lf, rf)
    if special is not None:
        source = _fused(f"{{0}} {FUSABLE_BINARY[name]} {{1}}", lf, rf)
        if source is not None:       # what parents fuse; the closure itself stays
            special.source = source.source  # type: ignore[attr-defined]
        return special
    return _fused(f"{{0}} {FUSABLE_BINARY[name]} {{1}}", lf, rf) or _binary_closure(name, lf, rf)


def _binary_special(name: str, lf: Expr, rf: Expr) -> Expr | None:
    """A field against a constant: closures tagged for inlining by the conditional
    nodes (`test`, `masked`)."""
    lslot = getattr(lf, "slot", None)
    if is_const(rf):
        c = rf.constant
        if lslot is not None:
            if name == "&":
                masked = lambda p, a: p.f[lslot] & c  # noqa: E731
                masked.masked = (lslot, c)  # type: ignore[attr-defined]
                return masked
            if name == "==":
                return _with_test(lambda p, a: p.f[lslot] == c, lslot, -1, c, True)
            if name == "!=":
                return _with_test(lambda p, a: p.f[lslot] != c, lslot, -1, c, False)
        masked_read = getattr(lf, "masked", None)
        if masked_read is not None and name in ("==", "!="):
            mslot, m = masked_read
            if name == "==":
                return _with_test(lambda p, a: p.f[mslot] & m == c, mslot, m, c, True)
            return _with_test(lambda p, a: p.f[mslot] & m != c, mslot, m, c, False)
    return None


def _binary_closure(name: str, lf: Expr, rf: Expr) -> Expr:
    """The operator over closures (operands that are not plain expressions)."""
    fn = _BINARY[name]
    lslot = getattr(lf, "slot", None)
    if is_const(rf):
        c = rf.constant
        if lslot is not None:
            if name == "+":
                return lambda p, a: p.f[lslot] + c
            if name == ">":
                return lambda p, a: p.f[lslot] > c
            if name == "<":
                return lambda p, a: p.f[lslot] < c
        if name == "&":
            return lambda p, a: lf(p, a) & c
        if name == "+":
            return lambda p, a: lf(p, a) + c
        if name == "==":
            return lambda p, a: lf(p, a) == c
        return lambda p, a: fn(lf(p, a), c)
    if name == "+":
        return lambda p, a: lf(p, a) + rf(p, a)
    if name == "&":
        return lambda p, a: lf(p, a) & rf(p, a)
    if name == "==":
        return lambda p, a: lf(p, a) == rf(p, a)
    return lambda p, a: fn(lf(p, a), rf(p, a))


def _last_element_field(slots: list[int], next_slot: int, what: str) -> Expr:
    """A stack's ``.last`` field: the slot of the element before `next` (``slots``
    holds the field's slot in each element); a fault when no element is there."""
    def last_field(p: Any, a: Any) -> Any:
        n = p.f[next_slot]
        if n == 0:
            raise PipelineFault(f"{what}: no valid element for .last")
        return p.f[slots[n - 1]]
    return last_field
