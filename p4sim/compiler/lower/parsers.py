"""Parser lowering: states, parser operations and select transitions."""
from __future__ import annotations

from typing import Any

from p4sim.compiler import ast
from p4sim.compiler.control_plane import MatchFieldInfo, ValueSetInfo
from p4sim.compiler.errors import CompileError
from p4sim.compiler.lower import ir
from p4sim.compiler.lower import jsonexpr as J
from p4sim.compiler.lower.arguments import bind_arguments
from p4sim.compiler.lower.calls import bind_parameters
from p4sim.compiler.lower.context import Lowering, ValueSetObj
from p4sim.compiler.lower.controls import declare_local
from p4sim.compiler.lower.expressions import ExprLowerer
from p4sim.compiler.lower.naming import annotation, cp_extras, fresh_name, qualified
from p4sim.compiler.lower.statements import StatementLowerer
from p4sim.compiler.lower.storage import FieldRef, StackRef
from p4sim.compiler.semantic.scope import DeclBinding, Scope
from p4sim.compiler.semantic.types import (
    BitsT, BoolT, EnumT, ErrorT, HeaderT, StructT, TupleT, UnionT, VarbitT, bit_width)

PARSER_OPS = {"extract", "extract_VL", "set", "verify", "advance", "shift", "primitive"}


def to_parser_ops(prims: list[dict]) -> list[dict]:
    ops = []
    for p in prims:
        if p["op"] in PARSER_OPS and "source_info" not in p or p["op"] == "verify":
            ops.append(p)
        elif p["op"] == "assign":
            ops.append({"parameters": p["parameters"], "op": "set"})
        else:
            ops.append({"parameters": [p], "op": "primitive"})
    return ops


def lower_parser(lw: Lowering, decl: ast.ParserDecl, decl_scope: Scope,
                 bindings: dict[str, Any]) -> ir.ParserIR:
    prefix = decl.name
    scope = decl_scope.child(prefix, bindings)
    prelude: list[ast.Statement] = []
    for local in decl.locals:
        if isinstance(local, ast.ValueSetDecl):
            scope.declare(local.name, value_set(lw, local, scope, prefix))
        elif _is_parser_instance(local, scope):
            assert isinstance(local, ast.Instantiation) and isinstance(local.type, ast.NamedType)
            scope.declare(local.name, SubParser(qualified(prefix, local.name, local.annotations),
                                                scope.lookup(local.type.name).decl,
                                                scope.lookup(local.type.name).scope))
        else:
            declare_local(lw, local, scope, prefix, prelude)
    names = [s.name for s in decl.states]
    if "start" not in names:
        raise CompileError(decl.span, f"parser '{decl.name}' has no 'start' state")
    for s in decl.states:
        if names.count(s.name) > 1:
            raise CompileError(s.span, f"state '{s.name}' is declared twice")
        if s.name in ("accept", "reject"):
            raise CompileError(s.span, f"'{s.name}' is a reserved state name")
    parser = ir.ParserIR("parser", len(lw.program.parsers), "start")
    all_names = set(names)
    work: list[tuple[ast.ParserState, list[ast.Statement], Scope]] = []
    for state in decl.states:
        stmts = list(state.statements)
        if state.name == "start":
            stmts = prelude + stmts
        work.append((state, stmts, scope))
    while work:
        state, stmts, state_scope = work.pop(0)
        for piece, piece_stmts in split_conditionals(state, stmts, all_names):
            inlined = inline_subparser_call(lw, piece, piece_stmts, state_scope, all_names)
            if inlined is None:
                parser.states.append(lower_state(lw, piece, piece_stmts, state_scope,
                                                 all_names))
            else:
                work[:0] = inlined
    lw.program.parsers.append(parser)
    return parser


def _subparser_call(stmt: ast.Statement, scope: Scope):
    if isinstance(stmt, ast.MethodCallStatement) and isinstance(stmt.call.target, ast.Member) \
            and stmt.call.target.member == "apply" and isinstance(stmt.call.target.expr, ast.Name):
        binding = scope.lookup(stmt.call.target.expr.name)
        if isinstance(binding, SubParser):
            return binding
    return None


def inline_subparser_call(lw: Lowering, state: ast.ParserState, stmts: list[ast.Statement],
                          scope: Scope, names: set[str]
                          ) -> list[tuple[ast.ParserState, list[ast.Statement], Scope]] | None:
    """``sub.apply(...)`` in a state: the state ends by jumping to the sub-parser's
    (renamed) states, whose ``accept`` continues with the rest of the caller state.
    Returns the new work items, or None when the state calls no sub-parser."""
    index = next((i for i, s in enumerate(stmts) if _subparser_call(s, scope)), None)
    if index is None:
        return None
    call = stmts[index].call  # type: ignore[attr-defined]
    sub: SubParser = _subparser_call(stmts[index], scope)
    # Variables the state declares before the call stay in scope for the call's
    # arguments and for the rest of the state after it: declare them up front.
    scope, before = _hoist_state_locals(lw, scope, list(stmts[:index]))
    sub.calls += 1
    prefix = sub.name.replace(".", "_") + (f"_{sub.calls - 1}" if sub.calls > 1 else "")
    decl = sub.decl

    renamed = {s.name: fresh_name(names, f"{prefix}_{s.name}") for s in decl.states}
    cont = fresh_name(names, f"{state.name}_after_{prefix}")
    renamed["accept"] = cont
    renamed["reject"] = "reject"
    bound = bind_arguments(decl.params, call.args, f"parser '{decl.name}'", call.span)
    caller = StatementLowerer(lw, scope, "parser")
    sub_scope = sub.decl_scope.child(sub.name)
    bind_parameters(decl.params, bound, caller, sub_scope, f"parser '{decl.name}'")
    prelude: list[ast.Statement] = []
    for local in decl.locals:
        if isinstance(local, ast.ValueSetDecl):
            sub_scope.declare(local.name, value_set(lw, local, sub_scope, sub.name))
        else:
            declare_local(lw, local, sub_scope, sub.name, prelude)
    head = ast.ParserState(state.name, (), ast.Name(renamed["start"], span=call.span),
                           span=state.span)
    if caller.out:
        raise CompileError(call.span, "sub-parser arguments must be lvalues or constants")
    items: list[tuple[ast.ParserState, list[ast.Statement], Scope]] = [
        (head, before, scope)]
    for s in decl.states:
        transition = _rename_transition(s.transition, renamed)
        body = list(s.statements) if s.name != "start" else prelude + list(s.statements)
        items.append((ast.ParserState(renamed[s.name], (), transition, span=s.span), body,
                      sub_scope))
    items.append((ast.ParserState(cont, (), state.transition, span=state.span),
                  list(stmts[index + 1:]), scope))
    return items


def _hoist_state_locals(lw: Lowering, scope: Scope, stmts: list[ast.Statement]
                        ) -> tuple[Scope, list[ast.Statement]]:
    """A child scope with the variables declared in ``stmts`` bound, and ``stmts`` with
    those declarations turned into assignments of their initializers."""
    inner = scope.child()
    out: list[ast.Statement] = []
    for s in stmts:
        if isinstance(s, ast.DeclarationStatement) and isinstance(s.decl, ast.VariableDecl):
            decl = s.decl
            t = ExprLowerer(inner).resolve(decl.type)
            inner.declare(decl.name, lw.layout.variable(decl.name, t, decl.span))
            if decl.init is not None:
                out.append(ast.Assignment(ast.Name(decl.name, span=decl.span), decl.init,
                                          span=decl.span))
        else:
            out.append(s)
    return inner, out


def _rename_transition(t: ast.Expression | None, renamed: dict[str, str]):
    if isinstance(t, ast.Name):
        return ast.Name(renamed.get(t.name, t.name), span=t.span)
    if isinstance(t, ast.SelectExpression):
        cases = tuple(ast.SelectCase(c.keyset, renamed.get(c.next_state, c.next_state),
                                     span=c.span) for c in t.cases)
        return ast.SelectExpression(t.exprs, cases, span=t.span)
    return t


class SubParser:
    """A parser instantiated inside another parser, inlined where it is applied."""

    def __init__(self, name: str, decl: ast.ParserDecl, decl_scope: Scope):
        self.name = name
        self.decl = decl
        self.decl_scope = decl_scope
        self.calls = 0


def _is_parser_instance(local: ast.Node, scope: Scope) -> bool:
    if not isinstance(local, ast.Instantiation) or not isinstance(local.type, ast.NamedType):
        return False
    binding = scope.lookup(local.type.name)
    return isinstance(binding, DeclBinding) and isinstance(binding.decl, ast.ParserDecl) \
        and not binding.decl.is_type_decl


def split_conditionals(state: ast.ParserState, stmts: list[ast.Statement], names: set[str]
                       ) -> list[tuple[ast.ParserState, list[ast.Statement]]]:
    """BMv2 parse states have no branches: a state with ``if`` statements becomes a
    state selecting on the condition, one state per branch and a join state."""
    flat: list[ast.Statement] = []
    for s in stmts:
        flat.extend(s.statements if isinstance(s, ast.BlockStatement) else [s])
    index = next((i for i, s in enumerate(flat) if isinstance(s, ast.IfStatement)), None)
    if index is None:
        return [(state, flat)]
    branch: ast.IfStatement = flat[index]  # type: ignore[assignment]
    span = branch.span

    def fresh(suffix: str) -> str:
        return fresh_name(names, f"{state.name}_{suffix}")

    join = fresh("join")
    then_name = fresh("then")
    else_name = fresh("else") if branch.otherwise is not None else join
    cond_bits = ast.Cast(ast.BitType(ast.IntLiteral(1, span=span), span=span), branch.cond,
                         span=span)
    select = ast.SelectExpression((cond_bits,), (
        ast.SelectCase(ast.IntLiteral(1, span=span), then_name, span=span),
        ast.SelectCase(ast.DefaultExpression(span=span), else_name, span=span)), span=span)
    head = ast.ParserState(state.name, (), select, span=state.span)
    out = [(head, flat[:index])]
    to_join = ast.Name(join, span=span)
    for name, body in ((then_name, branch.then), (else_name, branch.otherwise)):
        if body is None:
            continue
        piece = ast.ParserState(name, (), to_join, span=body.span)
        out.extend(split_conditionals(piece, [body], names))
    tail = ast.ParserState(join, (), state.transition, span=span)
    out.extend(split_conditionals(tail, flat[index + 1:], names))
    return out


def value_set(lw: Lowering, decl: ast.ValueSetDecl, scope: Scope, prefix: str) -> ValueSetObj:
    body = StatementLowerer(lw, scope, "parser")
    t = body.expr.resolve(decl.element_type)
    members: list[tuple[str, int, tuple]]  # name, width, annotations
    if isinstance(t, BitsT):
        members = [("", t.width, ())]
    elif isinstance(t, TupleT) and all(isinstance(e, BitsT) for e in t.elements):
        members = [("", e.width, ()) for e in t.elements]  # type: ignore[attr-defined]
    elif isinstance(t, StructT) and all(isinstance(f.type, BitsT) for f in t.fields):
        members = [(f.name, f.type.width, f.annotations)  # type: ignore[attr-defined]
                   for f in t.fields]
    else:
        raise CompileError(decl.element_type.span, "a value_set needs bit<W> values, or a "
                           "tuple or struct of them")
    size = body.expr.const_int(decl.size)
    name = qualified(prefix, decl.name, decl.annotations)
    width = sum(w for _, w, _ in members)
    vs = ir.ParseVsetIR(name, len(lw.program.parse_vsets), width, size)
    lw.program.parse_vsets.append(vs)
    lw.remember_order("value_set", name, decl)
    lw.cp.value_sets.append(ValueSetInfo(
        name, tuple(MatchFieldInfo(n, w, _value_set_match_kind(a), **cp_extras(a))
                    for n, w, a in members), size,
        **cp_extras(decl.annotations)))
    return ValueSetObj(name, vs, t)


def _value_set_match_kind(annotations: tuple) -> str:
    """A value_set struct member's match kind for P4Runtime: its ``@match(kind)``, else
    exact (the P4Runtime spec's Value Set section; p4c's sample pvs-struct-3-bmv2.p4)."""
    match = annotation(annotations, "match")
    if match is not None and match.args and isinstance(match.args[0], ast.Name):
        return match.args[0].name
    text = (match.body or "").strip() if match is not None else ""
    return text or "exact"


def lower_state(lw: Lowering, state: ast.ParserState, stmts: list[ast.Statement],
                scope: Scope, names: set[str]) -> ir.ParseStateIR:
    body = StatementLowerer(lw, scope.child(), "parser")
    body.statements(stmts)
    out = ir.ParseStateIR(state.name, lw.state_ids.next())
    t = state.transition
    if t is None:
        out.ops = to_parser_ops(body.out)
        out.transitions = [{"type": "default", "value": None, "mask": None,
                            "next_state": None}]
        lw.warn(state.span, f"state '{state.name}' has no transition; treated as "
                "'transition accept' (BMv2 has no reject)")
        return out
    if isinstance(t, ast.Name):
        out.ops = to_parser_ops(body.out)
        out.transitions = [{"type": "default", "value": None, "mask": None,
                            "next_state": next_state(lw, t.name, t, names)}]
        return out
    if not isinstance(t, ast.SelectExpression):
        raise CompileError(t.span, "a transition must name a state or be a select")
    keys = []
    widths: list[tuple[int, Any]] = []  # (width, key type)
    for e in t.exprs:
        stack_field = _last_stack_field(body, e)
        if stack_field is not None:
            keys.append(stack_field[0])
            widths.append((stack_field[1], BitsT(stack_field[1])))
            continue
        val = body.expr.lower(e)
        if not isinstance(val.type, (BitsT, BoolT, EnumT, ErrorT)):
            raise CompileError(e.span, "select keys must be bit<W>, bool, enum or error")
        width = bit_width(val.type)
        if isinstance(val.ref, FieldRef):
            keys.append(val.ref.json())
        else:
            temp = lw.layout.temp(BitsT(width))
            body.out.append({"op": "assign", "parameters": [
                J.as_param(temp.json()), J.as_param(val.data(e.span, width))]})
            keys.append(temp.json())
        widths.append((width, val.type))
    out.ops = to_parser_ops(body.out)
    out.transition_key = keys
    for case in t.cases:
        out.transitions.extend(transitions(lw, body, case, widths, names))
    return out


def _last_stack_field(body: StatementLowerer, e: ast.Expression):
    """``stack.last.f`` as a BMv2 ``stack_field`` key, and ``ustack.last.h.f`` (a header
    union stack) as a ``union_stack_field`` key: a field of the last extracted element,
    as p4c writes them."""
    if not isinstance(e, ast.Member) or not isinstance(e.expr, ast.Member):
        return None
    if e.expr.member == "last":
        base = body.expr.lower(e.expr.expr)
        if not isinstance(base.ref, StackRef) or isinstance(base.ref.type.element, UnionT):
            return None
        ftype = base.ref.type.element.field_type(e.member)  # type: ignore[attr-defined]
        if ftype is None:
            raise CompileError(e.span, f"'{base.ref.type.element.describe()}' has no field "
                               f"'{e.member}'")
        return {"type": "stack_field", "value": [base.ref.name, e.member]}, bit_width(ftype)
    last = e.expr.expr
    if not isinstance(last, ast.Member) or last.member != "last":
        return None
    base = body.expr.lower(last.expr)
    if not isinstance(base.ref, StackRef) or not isinstance(base.ref.type.element, UnionT):
        return None
    union = base.ref.type.element
    member = union.field_type(e.expr.member)
    if not isinstance(member, HeaderT):
        raise CompileError(e.expr.span, f"header_union '{union.name}' has no member "
                           f"'{e.expr.member}'")
    ftype = member.field_type(e.member)
    if ftype is None or isinstance(ftype, VarbitT):
        raise CompileError(e.span, f"header '{member.name}' has no field '{e.member}'"
                           if ftype is None else "a varbit field cannot be a select key")
    return ({"type": "union_stack_field", "value": [base.ref.name, e.expr.member, e.member]},
            bit_width(ftype))


def next_state(lw: Lowering, name: str, node: ast.Node, names: set[str]) -> str | None:
    if name == "accept":
        return None
    if name == "reject":
        # p4c's words; BMv2 treats it as accept with parser_error unchanged
        lw.warn(node.span, "Explicit transition to reject not supported on this target")
        return None
    if name not in names:
        raise CompileError(node.span, f"unknown parser state '{name}'")
    return name


def transitions(lw: Lowering, body: StatementLowerer, case: ast.SelectCase,
                widths: list[tuple[int, Any]], names: set[str]) -> list[dict]:
    target = next_state(lw, case.next_state, case, names)
    keyset = case.keyset
    if isinstance(keyset, ast.DefaultExpression) or isinstance(keyset, ast.DontCare) and \
            len(widths) == 1:
        return [{"type": "default", "value": None, "mask": None, "next_state": target}]
    if isinstance(keyset, ast.Name):
        binding = body.scope.lookup(keyset.name)
        if isinstance(binding, ValueSetObj):
            if binding.ir.bitwidth != sum(w for w, _ in widths):
                raise CompileError(keyset.span, "value set width differs from the select key")
            return [{"type": "parse_vset", "value": binding.name, "mask": None,
                     "next_state": target}]
    elements = list(keyset.elements) if isinstance(keyset, ast.ListExpression) else [keyset]
    if len(elements) != len(widths):
        raise CompileError(keyset.span, f"keyset has {len(elements)} values but select has "
                           f"{len(widths)} keys")
    # each element expands to a list of (value, mask) pairs (ranges become several)
    alternatives: list[list[tuple[int, int | None]]] = []
    for e, (width, _) in zip(elements, widths):
        alternatives.append(element_matches(body, e, width))
    combos: list[list[tuple[int, int | None]]] = [[]]
    for alt in alternatives:
        combos = [c + [a] for c in combos for a in alt]
    out = []
    for combo in combos:
        value_hex, mask_hex, any_mask = "", "", False
        for (value, mask), (width, _) in zip(combo, widths):
            nbytes = (width + 7) // 8
            value_hex += format(value, f"0{nbytes * 2}x")
            if mask is not None:
                any_mask = True
            mask_hex += format(mask if mask is not None else (1 << width) - 1,
                               f"0{nbytes * 2}x")
        out.append({"type": "hexstr", "value": "0x" + value_hex,
                    "mask": "0x" + mask_hex if any_mask else None, "next_state": target})
    return out


def element_matches(body: StatementLowerer, e: ast.Expression, width: int
                    ) -> list[tuple[int, int | None]]:
    full = (1 << width) - 1
    if isinstance(e, (ast.DontCare, ast.DefaultExpression)):
        return [(0, 0)]
    if isinstance(e, ast.Binary) and e.op == "&&&":
        value, mask = _const(body, e.left, width), _const(body, e.right, width)
        return [(value & mask, mask)]
    if isinstance(e, ast.Binary) and e.op == "..":
        lo, hi = _const(body, e.left, width), _const(body, e.right, width)
        if lo > hi:
            return []
        return list(range_to_masks(lo, hi, width))
    return [(_const(body, e, width), None)]


def _const(body: StatementLowerer, e: ast.Expression, width: int) -> int:
    if isinstance(e, ast.Name) and isinstance(body.scope.lookup(e.name), ValueSetObj):
        raise CompileError(e.span, "on BMv2 a value set must be the whole keyset of a select "
                           "case, not one element of it")
    return body.expr.key_constant(e, width, "select case")


def range_to_masks(lo: int, hi: int, width: int) -> list[tuple[int, int]]:
    """Cover [lo, hi] with aligned power-of-two blocks (value, mask)."""
    full = (1 << width) - 1
    out = []
    while lo <= hi:
        size = lo & -lo if lo else 1 << width
        while size > hi - lo + 1:
            size >>= 1
        out.append((lo, full ^ (size - 1)))
        lo += size
    return out
