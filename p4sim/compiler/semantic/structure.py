"""Structural rules p4c's front end enforces on every declaration, used or not.

Lowering only walks what the V1Switch package reaches, so a duplicated parameter, a
second ``key`` property or a parser that defines its own ``accept`` state inside a
control or parser nobody instantiates used to compile; p4c refuses each of them before
it looks for ``main``. This pass runs first, over the whole program, and raises the
first violation in source order:

- duplicate names: parameters (with constructor and type parameters), parser
  states, table properties, extern methods of one arity, the locals of a control or
  parser, the program's own top-level types, constants and instances, the members of
  one ``error`` or ``match_kind`` declaration, the labels of one ``switch``;
- a default value on an ``out``, ``inout`` or ``@optional`` parameter; a direction on
  a ``string`` parameter; an extern constructor with a return type; ``type`` over
  anything but a base type;
- the built-in parser states ``accept`` and ``reject`` defined by the program;
- ``default`` anywhere but last in a ``switch``;
- ``break`` and ``continue`` outside a ``for`` loop, ``exit`` inside a function,
  ``return`` and ``exit`` inside a parser state;
- a table applied from an action.
"""
from __future__ import annotations

import dataclasses
from typing import Any, Iterable, Iterator

from p4sim.compiler import ast
from p4sim.compiler.errors import CompileError, SourceSpan

_BUILTIN_STATES = ("accept", "reject")
# what ``type`` (a new type) cannot be made of: P4 allows it over base types only
_NOT_BASE_TYPES = (ast.TupleType, ast.StackType, ast.DontCareType, ast.MatchKindType)


# Top-level declarations that cannot be overloaded (functions can, by arity; actions
# cannot: p4c refuses two actions of one name whatever their parameters).
_SINGLE = (ast.ActionDecl, ast.ConstantDecl, ast.Instantiation, ast.ValueSetDecl, ast.HeaderDecl,
           ast.HeaderUnionDecl, ast.StructDecl, ast.EnumDecl, ast.TypedefDecl,
           ast.ControlDecl, ast.ParserDecl, ast.PackageDecl)
_BUILTIN_FILES = ("core.p4", "v1model.p4")


def check_structure(program: ast.Program) -> None:
    """Raise CompileError at the first structural violation anywhere in ``program``."""
    for decl in program.declarations:
        _check_declaration(decl)
    # Only the program's own declarations: the bundled headers are ours, not p4c's, and
    # a name they declare that p4c's do not (for this V1MODEL_VERSION) must stay free.
    _unique(((d.name, d.span) for d in program.declarations if isinstance(d, _SINGLE)
             and not d.span.file.endswith(_BUILTIN_FILES)), "declaration")
    _check_no_recursive_instantiation(program)
    _unique(((m, d.span) for d in program.declarations if isinstance(d, ast.MatchKindDecl)
             for m in d.members), "match_kind member")


def _check_no_recursive_instantiation(program: ast.Program) -> None:
    """A control or parser cannot instantiate itself, directly or through others (the
    instances would nest without end)."""
    blocks = {d.name: d for d in program.declarations
              if isinstance(d, (ast.ControlDecl, ast.ParserDecl)) and not d.is_type_decl}
    uses = {name: list(_instantiated_blocks(decl, blocks)) for name, decl in blocks.items()}
    done: set[str] = set()

    def visit(name: str, path: tuple[str, ...]) -> None:
        for used, span in uses[name]:
            if used in path:
                cycle = " -> ".join(path[path.index(used):] + (used,))
                raise CompileError(span, f"{used}: recursive instantiation ({cycle})")
            if used not in done:
                visit(used, path + (used,))
        done.add(name)

    for name in blocks:
        if name not in done:
            visit(name, (name,))


def _instantiated_blocks(decl: ast.ControlDecl | ast.ParserDecl, blocks: dict[str, Any]
                         ) -> Iterator[tuple[str, SourceSpan]]:
    """The controls and parsers ``decl`` instantiates: as locals, or applied directly."""
    local_names = {getattr(d, "name", None) for d in decl.locals}
    for local in decl.locals:
        if isinstance(local, ast.Instantiation) and isinstance(local.type, ast.NamedType) \
                and local.type.name in blocks:
            yield local.type.name, local.span
    for node in ast.walk(decl):
        applied = _applied_name(node)
        if applied in blocks and applied not in local_names:
            yield applied, node.span


def _check_declaration(decl: Any) -> None:
    _check_name(getattr(decl, "name", None), decl.span)
    for f in getattr(decl, "fields", ()):
        _check_name(getattr(f, "name", None), f.span)
    if isinstance(decl, ast.HeaderDecl):
        varbits = [f.name for f in decl.fields if isinstance(f.type, ast.VarbitType)]
        if len(varbits) > 1:
            raise CompileError(decl.span, f"{decl.name}: a header holds at most one varbit "
                               f"field, and {', '.join(map(repr, varbits))} are varbit")
    if isinstance(decl, ast.ActionDecl):
        _check_action_parameters(decl)
    if isinstance(decl, (ast.ErrorDecl, ast.MatchKindDecl)):
        kind = "error" if isinstance(decl, ast.ErrorDecl) else "match_kind"
        _unique(((m, decl.span) for m in decl.members), f"{kind} member")
        return
    type_params = getattr(decl, "type_params", ())
    _unique(((t.name, t.span) for t in type_params), "type parameter")
    params = (*getattr(decl, "params", ()), *getattr(decl, "constructor_params", ()))
    # type parameters and parameters share the declaration's namespace
    _unique(((p.name, p.span) for p in (*type_params, *params)), "parameter")
    for param in params:
        _check_default(param)
        if param.direction and isinstance(param.type, ast.StringType):
            raise CompileError(param.span, f"{param.name}: a parameter of type string "
                               "cannot have a direction")
    if isinstance(decl, ast.TypedefDecl) and decl.is_new_type and \
            isinstance(decl.type, _NOT_BASE_TYPES):
        raise CompileError(decl.span, f"{decl.name}: 'type' can only be applied to base "
                           "types (bit<W>, int<W>, bool, or a name for one)")
    if isinstance(decl, ast.ExternDecl):
        for method in decl.methods:
            if method.name == decl.name and method.return_type is not None:
                raise CompileError(method.span, f"{decl.name}: a constructor cannot have "
                                   "a return type")
        # methods (and constructors) overload by arity only
        _unique(((f"{m.name}/{len(m.params)}", m.span) for m in decl.methods), "method")
        for method in decl.methods:
            _check_declaration(method)
    elif isinstance(decl, ast.ParserDecl):
        _check_parser(decl)
    elif isinstance(decl, ast.ControlDecl):
        _unique(_local_names(decl.locals), "declaration")
        for local in decl.locals:
            _check_declaration(local)
        tables = {d.name for d in decl.locals if isinstance(d, ast.TableDecl)}
        for local in decl.locals:
            if isinstance(local, ast.ActionDecl):
                _check_no_table_applied(local, tables)
        if decl.apply is not None:
            _check_body(decl.apply, in_function=False)
    elif isinstance(decl, ast.TableDecl):
        _unique(((p.name, p.span) for p in decl.properties), "table property")
    elif isinstance(decl, (ast.ActionDecl, ast.FunctionDecl)):
        _check_body(decl.body, in_function=isinstance(decl, ast.FunctionDecl),
                    in_action=isinstance(decl, ast.ActionDecl))


def _check_name(name: str | None, span: SourceSpan) -> None:
    """``_`` is the don't-care, never a name (p4c refuses it for any declaration)."""
    if name == "_":
        raise CompileError(span, "'_' cannot name a declaration, field or parameter: it "
                           "stands for a don't-care value")


def _check_action_parameters(action: ast.ActionDecl) -> None:
    """The control plane supplies an action's directionless parameters, after the
    ones a call gives: so they come last; and none is an infinite-precision int."""
    control_plane: ast.Parameter | None = None
    for param in action.params:
        _check_name(param.name, param.span)
        if isinstance(param.type, ast.IntType):
            raise CompileError(param.span, f"{param.name}: an action parameter cannot have "
                               "type int (give it a width: bit<W> or int<W>)")
        if not param.direction:
            control_plane = control_plane or param
        elif control_plane is not None:
            raise CompileError(param.span, f"{param.name}: a parameter with a direction "
                               f"cannot follow the directionless '{control_plane.name}' (an "
                               "action's directionless parameters come last)")


def _check_no_table_applied(action: ast.ActionDecl, tables: set[str]) -> None:
    """An action runs as a table's result: it cannot apply a table itself."""
    for node in ast.walk(action.body):
        applied = _applied_name(node)
        if applied in tables:
            raise CompileError(node.span, f"{applied}.apply(): tables cannot be applied "
                               f"from actions (in action '{action.name}')")


def _applied_name(node: ast.Node) -> str | None:
    """``X`` when ``node`` is the call ``X.apply(...)``."""
    if isinstance(node, ast.MethodCall) and isinstance(node.target, ast.Member) and \
            node.target.member == "apply" and isinstance(node.target.expr, ast.Name):
        return node.target.expr.name
    return None


def _check_default(param: ast.Parameter) -> None:
    """A default value only fits a parameter the caller may leave out and that is read:
    not an ``out``/``inout`` one, and not an ``@optional`` one (which has no value)."""
    if param.default is None:
        return
    if param.direction in ("out", "inout"):
        raise CompileError(param.span, f"{param.name}: an {param.direction} parameter "
                           "cannot have a default value")
    if any(a.name == "optional" for a in param.annotations):
        raise CompileError(param.span, f"{param.name}: an @optional parameter cannot "
                           "have a default value")


def _check_parser(decl: ast.ParserDecl) -> None:
    for state in decl.states:
        if state.name in _BUILTIN_STATES:
            raise CompileError(state.span, f"invalid parser state '{state.name}': "
                               f"{state.name} is built in and must not be defined")
    _unique(_local_names((*decl.locals, *decl.states)), "declaration")
    for local in decl.locals:
        _check_declaration(local)
    for state in decl.states:
        for statement in state.statements:
            _check_body(statement, in_function=False, in_parser=True)
    _check_parser_ends(decl)


def _check_parser_ends(decl: ast.ParserDecl) -> None:
    """From ``start``, some path reaches accept or reject (a state without a transition
    rejects); a parser that only loops could never hand a packet on."""
    states = {s.name: s for s in decl.states}
    if "start" not in states:
        return
    seen, todo = set(), ["start"]
    while todo:
        name = todo.pop()
        if name in _BUILTIN_STATES or name not in states:
            return   # an end, or a state the checker reports as unknown
        if name in seen:
            continue
        seen.add(name)
        transition = states[name].transition
        if transition is None:
            return
        if isinstance(transition, ast.Name):
            todo.append(transition.name)
        elif isinstance(transition, ast.SelectExpression):
            if not any(isinstance(c.keyset, (ast.DefaultExpression, ast.DontCare))
                       for c in transition.cases):
                return   # no default: a value no case matches rejects the packet
            todo.extend(case.next_state for case in transition.cases)
        else:
            return   # a form this check does not follow: assume it ends
    raise CompileError(decl.span, f"parser '{decl.name}' never reaches accept or reject: "
                       f"its states ({', '.join(sorted(seen))}) only lead to each other")


def _local_names(decls: Iterable[Any]) -> Iterator[tuple[str, SourceSpan]]:
    """Names of local declarations; functions are keyed by name and parameter count,
    since P4 overloads them by their number of parameters (not actions: p4c refuses
    two actions of one name)."""
    for d in decls:
        if isinstance(d, ast.FunctionDecl):
            yield f"{d.name}/{len(d.params)}", d.span
        else:
            yield d.name, d.span


def _check_body(body: ast.Statement, in_function: bool, in_parser: bool = False,
                in_action: bool = False) -> None:
    for node, loops in _statements(body, 0):
        if isinstance(node, (ast.BreakStatement, ast.ContinueStatement)) and loops == 0:
            word = "break" if isinstance(node, ast.BreakStatement) else "continue"
            raise CompileError(node.span, f"'{word}' outside a for loop")
        if isinstance(node, ast.ExitStatement) and in_function:
            raise CompileError(node.span, "'exit' is not allowed in a function")
        if isinstance(node, (ast.ReturnStatement, ast.ExitStatement)) and in_parser:
            word = "return" if isinstance(node, ast.ReturnStatement) else "exit"
            raise CompileError(node.span, f"'{word}' is not allowed in a parser state")
        if isinstance(node, ast.SwitchStatement):
            _check_switch(node)
        if isinstance(node, ast.DeclarationStatement):
            _check_name(node.decl.name, node.decl.span)
            if (in_function or in_action) and isinstance(node.decl, ast.Instantiation):
                raise CompileError(node.decl.span, f"{node.decl.name}: instantiations cannot "
                                   "be in a function or an action")


def _check_switch(node: ast.SwitchStatement) -> None:
    labels = [(_label_text(c.label), c.span) for c in node.cases]
    _unique(((text, span) for text, span in labels if text is not None), "switch label")
    for case, (text, _) in zip(node.cases[:-1], labels):
        if text == "default":
            raise CompileError(case.span, "'default' must be the last label of a switch")


def _label_text(label: ast.Expression) -> str | None:
    """A comparable spelling of a switch label (names and literals; None otherwise)."""
    if isinstance(label, ast.DefaultExpression):
        return "default"
    if isinstance(label, ast.Name):
        return ("." if label.top_level else "") + label.name
    if isinstance(label, ast.Member) and isinstance(label.expr, ast.Name):
        return f"{label.expr.name}.{label.member}"
    if isinstance(label, ast.IntLiteral):
        if label.width is None:
            return str(label.value)
        return f"{label.width}{'s' if label.signed else 'w'}{label.value}"
    return None


def _statements(node: Any, loops: int) -> Iterator[tuple[ast.Node, int]]:
    """Every statement under ``node`` in source order, with how many ``for`` loops
    enclose it (declarations and expressions are not entered)."""
    if not isinstance(node, ast.Statement):
        return
    yield node, loops
    inner = loops + 1 if isinstance(node, ast.ForStatement) else loops
    for f in dataclasses.fields(node):
        value = getattr(node, f.name)
        for child in value if type(value) is tuple else (value,):
            if isinstance(child, ast.SwitchCase):
                yield from _statements(child.body, inner)
            else:
                yield from _statements(child, inner)


def _unique(names: Iterable[tuple[str, SourceSpan]], what: str) -> None:
    """Refuse the second of two equal names; a name's key may carry a ``/arity``
    suffix (overloads), which the message leaves out."""
    seen: dict[str, SourceSpan] = {}
    for key, span in names:
        if key in seen:
            name = key.split("/")[0]
            raise CompileError(span, f"{name}: duplicate {what} (first declared at "
                               f"{seen[key]})")
        seen[key] = span
