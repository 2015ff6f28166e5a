"""Mid-end pass: ``t.apply().hit`` inside larger expressions becomes statements.

BMv2's control graph can branch on whether a table hit only when the branch's whole
condition is ``[!]t.apply().hit`` (or ``.miss``): the table node has ``__HIT__`` and
``__MISS__`` successors and nothing else. Anywhere else in a control's apply block,
an expression that applies a table is computed first into bool temporaries, in P4's
evaluation order (``&&`` and ``||`` short-circuit, so a table on their right applies
only when the left side lets it; ``?:`` applies only the chosen side's tables):

- ``if (E)``: ``{ bool cond; <E into cond>; if (cond) ... }``. Conditions that call
  functions are computed the same way (an action runs the inlined function first);
- ``x = E`` (and ``T x = E;``): ``E`` is computed into ``x`` directly when it chooses
  between values with ``?:``, or into a bool temporary copied to ``x`` when it is a
  boolean combination (which is written step by step).

Temporaries are declared where they are used, as ``cond$N`` / ``tmp$N``: names no
source can spell, whose storage is named by the part before the ``$``. The pass
rewrites control apply blocks only (elsewhere a table cannot be applied), and leaves
``for`` loops alone (they run inside one action, where no table applies).
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable, NoReturn

from p4sim.compiler import ast
from p4sim.compiler.errors import CompileError, SourceSpan
from p4sim.compiler.midend.walk import map_statement

NewBool = Callable[[], str]


def hoist_table_hits(program: ast.Program) -> ast.Program:
    """``program`` with every apply-block expression that applies a table (or an
    ``if`` condition that calls a function) turned into statements."""
    decls = tuple(_in_control(d) if isinstance(d, ast.ControlDecl) else d
                  for d in program.declarations)
    if all(new is old for new, old in zip(decls, program.declarations)):
        return program
    return replace(program, declarations=decls)


def _in_control(control: ast.ControlDecl) -> ast.ControlDecl:
    if control.apply is None:
        return control
    apply = map_statement(control.apply, _Hoister().rewrite, loops=False)
    if apply is control.apply:
        return control
    assert isinstance(apply, ast.BlockStatement)  # a block stays a block
    return replace(control, apply=apply)


class _Hoister:
    """Rewrites the statements of one control, numbering its temporaries."""

    def __init__(self) -> None:
        self.count = 0
        self.declared: list[ast.Statement] = []  # the temporaries of the statement at hand

    def rewrite(self, s: ast.Statement) -> ast.Statement:
        if isinstance(s, ast.IfStatement) and not is_table_hit(s.cond) and \
                (contains_apply(s.cond) or contains_call(s.cond)):
            return self._if(s)
        if isinstance(s, ast.Assignment) and contains_apply(s.right):
            return self._assignment(s.left, s.right, s.span)
        if isinstance(s, ast.BlockStatement):
            return self._block(s)
        return s

    def _if(self, s: ast.IfStatement) -> ast.Statement:
        cond = self._temp("cond", s.span)
        stmts = evaluate_into(s.cond, cond, self._bool_maker(s.span))
        stmts.append(ast.IfStatement(ast.Name(cond, span=s.cond.span), s.then, s.otherwise,
                                     span=s.span))
        return self._with_temps(stmts, s.span)

    def _assignment(self, left: ast.Expression, right: ast.Expression, span: SourceSpan
                    ) -> ast.Statement:
        stmts = _evaluate_value(right, left, self._bool_maker(span), span)
        return self._with_temps(stmts, span)

    def _block(self, s: ast.BlockStatement) -> ast.Statement:
        """``T x = E;`` with a table applied in E: ``T x;`` then ``x = E`` (the variable
        stays in the block's scope)."""
        out: list[ast.Statement] = []
        for inner in s.statements:
            decl = inner.decl if isinstance(inner, ast.DeclarationStatement) else None
            if isinstance(inner, ast.DeclarationStatement) and \
                    isinstance(decl, ast.VariableDecl) and decl.init is not None and \
                    contains_apply(decl.init):
                out.append(replace(inner, decl=replace(decl, init=None)))
                out.append(self._assignment(ast.Name(decl.name, span=decl.span), decl.init,
                                            decl.span))
            else:
                out.append(inner)
        if len(out) == len(s.statements):
            return s
        return replace(s, statements=tuple(out))

    # ------------------------------------------------------------------ temporaries
    def _temp(self, base: str, span: SourceSpan) -> str:
        self.count += 1
        name = f"{base}${self.count}"
        self.declared.append(ast.DeclarationStatement(
            ast.VariableDecl(name, ast.BoolType(span=span), span=span), span=span))
        return name

    def _bool_maker(self, span: SourceSpan) -> NewBool:
        return lambda: self._temp("tmp", span)

    def _with_temps(self, stmts: list[ast.Statement], span: SourceSpan) -> ast.Statement:
        """The statements in a block of their own, after the temporaries they use."""
        block = ast.BlockStatement(tuple(self.declared) + tuple(stmts), span=span)
        self.declared = []
        return block


def is_table_hit(e: ast.Expression) -> bool:
    """``[!]x.apply().hit`` or ``.miss``: a condition the control graph branches on
    directly (the table's ``__HIT__`` / ``__MISS__`` successors)."""
    while isinstance(e, ast.Unary) and e.op == "!":
        e = e.operand
    return isinstance(e, ast.Member) and e.member in ("hit", "miss") and \
        isinstance(e.expr, ast.MethodCall) and isinstance(e.expr.target, ast.Member) and \
        e.expr.target.member == "apply"


def _written_step_by_step(e: ast.Expression) -> bool:
    """Whether computing ``e`` writes its destination more than once (a boolean
    combination), so that the destination must be a temporary, not the target."""
    return (isinstance(e, ast.Binary) and e.op in ("&&", "||")) or \
        (isinstance(e, ast.Unary) and e.op == "!") or _is_hit(e)


def _is_hit(e: ast.Expression) -> bool:
    return isinstance(e, ast.Member) and e.member in ("hit", "miss") and \
        isinstance(e.expr, ast.MethodCall) and not _contains_apply_args(e.expr)


def _evaluate_value(e: ast.Expression, target: ast.Expression, new_bool: NewBool,
                    at: SourceSpan) -> list[ast.Statement]:
    """Statements that assign ``e`` to ``target``, writing it once on every path; the
    write is located ``at`` (the statement, or the chosen side of a ``?:``)."""
    span = e.span
    if not contains_apply(e):
        return [ast.Assignment(target, e, span=at)]
    if _written_step_by_step(e):
        temp = new_bool()
        return evaluate_into(e, temp, new_bool) + [
            ast.Assignment(target, ast.Name(temp, span=at), span=at)]
    if isinstance(e, ast.Ternary):
        then = ast.BlockStatement(tuple(_evaluate_value(e.then, target, new_bool,
                                                        e.then.span)), span=span)
        other = ast.BlockStatement(tuple(_evaluate_value(e.otherwise, target, new_bool,
                                                         e.otherwise.span)), span=span)
        return _branch(e.cond, then, other, new_bool, span)
    pre: list[ast.Statement] = []
    rest = _hoist_hits(e, new_bool, pre)
    return pre + [ast.Assignment(target, rest, span=at)]


def evaluate_into(e: ast.Expression, var: str, new_bool: NewBool) -> list[ast.Statement]:
    """Statements that leave the value of ``e`` in the bool temporary ``var``, applying
    tables in evaluation order; ``new_bool`` declares another temporary, for a
    ``t.apply().hit`` nested in some other expression (an operand, a cast...)."""
    span = e.span
    target = ast.Name(var, span=span)
    if not contains_apply(e):
        return [ast.Assignment(target, e, span=span)]
    if isinstance(e, ast.Ternary):
        then = ast.BlockStatement(tuple(evaluate_into(e.then, var, new_bool)), span=span)
        other = ast.BlockStatement(tuple(evaluate_into(e.otherwise, var, new_bool)),
                                   span=span)
        return _branch(e.cond, then, other, new_bool, span)
    if isinstance(e, ast.Binary) and e.op in ("&&", "||"):
        first = evaluate_into(e.left, var, new_bool)
        test: ast.Expression = target if e.op == "&&" else ast.Unary("!", target, span=span)
        rest = ast.BlockStatement(tuple(evaluate_into(e.right, var, new_bool)), span=span)
        return first + [ast.IfStatement(test, rest, None, span=span)]
    if isinstance(e, ast.Unary) and e.op == "!":
        return evaluate_into(e.operand, var, new_bool) + [
            ast.Assignment(target, ast.Unary("!", target, span=span), span=span)]
    if _is_hit(e):
        yes = ast.Assignment(target, ast.BoolLiteral(True, span=span), span=span)
        no = ast.Assignment(target, ast.BoolLiteral(False, span=span), span=span)
        return [ast.IfStatement(e, yes, no, span=span)]
    # Any other expression: evaluate each 't.apply().hit' it holds, left to right,
    # into a bool temporary first (as p4c's side-effect ordering does), then the rest.
    pre: list[ast.Statement] = []
    rest_expr = _hoist_hits(e, new_bool, pre)
    return pre + [ast.Assignment(target, rest_expr, span=span)]


def _branch(cond: ast.Expression, then: ast.BlockStatement, other: ast.BlockStatement,
            new_bool: NewBool, span: SourceSpan) -> list[ast.Statement]:
    """``if (cond) then else other``, with the tables ``cond`` applies hoisted."""
    if contains_apply(cond):
        cond_var = new_bool()
        return evaluate_into(cond, cond_var, new_bool) + [
            ast.IfStatement(ast.Name(cond_var, span=span), then, other, span=span)]
    return [ast.IfStatement(cond, then, other, span=span)]


def _refuse_apply(span: SourceSpan) -> NoReturn:
    raise CompileError(span, "table.apply() may only be used as 't.apply().hit', "
                       "'t.apply().miss' (possibly inside && / || / ! / ?:) or in a switch")


def _contains_apply_args(call: ast.MethodCall) -> bool:
    return any(contains_apply(a.value) for a in call.args)


def _hoist_hits(e: ast.Expression, new_bool: NewBool, pre: list[ast.Statement]
                ) -> ast.Expression:
    """``e`` with each always-evaluated ``t.apply().hit``/``.miss`` replaced by a bool
    temporary whose computing statements are appended to ``pre`` in evaluation order."""
    if not contains_apply(e):
        return e
    if isinstance(e, ast.Member) and e.member in ("hit", "miss") and \
            isinstance(e.expr, ast.MethodCall):
        temp = new_bool()
        pre.extend(evaluate_into(e, temp, new_bool))
        return ast.Name(temp, span=e.span)
    if isinstance(e, ast.Ternary):
        # only the condition is always evaluated
        if contains_apply(e.then) or contains_apply(e.otherwise):
            _refuse_apply(e.span)
        return ast.Ternary(_hoist_hits(e.cond, new_bool, pre), e.then, e.otherwise,
                           span=e.span)
    if isinstance(e, (ast.Binary, ast.Unary)) and e.op in ("&&", "||", "!"):
        # a bool with short-circuit order: let evaluate_into order it
        temp = new_bool()
        pre.extend(evaluate_into(e, temp, new_bool))
        return ast.Name(temp, span=e.span)
    if isinstance(e, ast.MethodCall):
        args = tuple(ast.Argument(_hoist_hits(a.value, new_bool, pre), a.name, span=a.span)
                     for a in e.args)
        return ast.MethodCall(e.target, e.type_args, args, span=e.span)
    changes: dict[str, Any] = {}  # field name -> new value, for dataclasses.replace
    for name in e.__dataclass_fields__:
        sub = getattr(e, name)
        if isinstance(sub, ast.Expression) and contains_apply(sub):
            changes[name] = _hoist_hits(sub, new_bool, pre)
    if not changes:
        _refuse_apply(e.span)
    return replace(e, **changes)


_OPERANDS = ("left", "right", "operand", "expr", "cond", "then", "otherwise")


def contains_call(e: ast.Expression) -> bool:
    """Whether ``e`` calls something other than isValid (a function to inline)."""
    if isinstance(e, ast.MethodCall):
        if not (isinstance(e.target, ast.Member) and e.target.member == "isValid"):
            return True
    for attr in _OPERANDS + ("target",):
        sub = getattr(e, attr, None)
        if isinstance(sub, ast.Expression) and contains_call(sub):
            return True
    return False


def contains_apply(e: ast.Expression) -> bool:
    """Whether ``e`` applies something (``x.apply(...)``), arguments included."""
    if isinstance(e, ast.MethodCall):
        if isinstance(e.target, ast.Member) and e.target.member == "apply":
            return True
        return any(contains_apply(a.value) for a in e.args)
    for attr in _OPERANDS:
        sub = getattr(e, attr, None)
        if isinstance(sub, ast.Expression) and contains_apply(sub):
            return True
    return False
