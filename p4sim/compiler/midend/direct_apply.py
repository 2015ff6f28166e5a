"""Mid-end pass: ``C.apply(...)`` on a control or parser type gets an instance.

P4 lets a control apply another control type directly, without declaring an instance
(``Scale.apply(hdr.b);``), and a parser state another parser type: the program then
behaves as if the caller declared ``Scale() Scale;`` and applied that. Making the
instance explicit here leaves the converter a single form (applying an instance).
The instance carries ``@name`` with the name the type's objects are qualified by (the
type's name, or its own ``@name``), so tables and externs inside it keep their names;
its identifier ends in ``$direct``, which no source name can spell, so it hides
nothing. Every direct application of one type in one block shares the instance (a
sub-parser is still inlined once per application).

Only types without constructor parameters can be applied this way, and only where the
name is not redeclared in the applying control or parser (a parameter, local, state
or block variable of that name means the name is not the type).
"""
from __future__ import annotations

from dataclasses import replace
from typing import Iterator, Mapping

from p4sim.compiler import ast
from p4sim.compiler.midend.walk import StatementMap, map_declaration, map_statement

SUFFIX = "$direct"
_BLOCKS = (ast.ControlDecl, ast.ParserDecl)
Block = ast.ControlDecl | ast.ParserDecl


def instantiate_direct_applications(program: ast.Program) -> ast.Program:
    """``program`` with each directly applied control or parser type instantiated in
    the control or parser that applies it."""
    applicable = {d.name: d for d in program.declarations
                  if isinstance(d, _BLOCKS) and not d.is_type_decl
                  and not d.constructor_params}
    if not applicable:
        return program
    decls = tuple(_in_control(d, applicable) if isinstance(d, ast.ControlDecl) else
                  _in_parser(d, applicable) if isinstance(d, ast.ParserDecl) else d
                  for d in program.declarations)
    if all(new is old for new, old in zip(decls, program.declarations)):
        return program
    return replace(program, declarations=decls)


def _in_control(control: ast.ControlDecl, applicable: Mapping[str, Block]
                ) -> ast.ControlDecl:
    """A control's apply block applying instances of the control types it applied."""
    if control.apply is None:
        return control
    used: dict[str, Block] = {}
    rewrite = _rewriter(_candidates(control, applicable), used)
    apply = map_statement(control.apply, rewrite)
    if not used:
        return control
    assert isinstance(apply, ast.BlockStatement)  # a block stays a block
    return replace(control, locals=control.locals + _instances(used), apply=apply)


def _in_parser(parser: ast.ParserDecl, applicable: Mapping[str, Block]) -> ast.ParserDecl:
    """A parser's states applying instances of the parser types they applied."""
    used: dict[str, Block] = {}
    rewrite = _rewriter(_candidates(parser, applicable), used)
    states = tuple(map_declaration(state, rewrite) for state in parser.states)
    if not used:
        return parser
    return replace(parser, locals=parser.locals + _instances(used), states=states)


def _candidates(block: Block, applicable: Mapping[str, Block]) -> dict[str, Block]:
    """The types ``block`` can apply directly: of its own kind, names it does not
    redeclare."""
    declared = _declared_in(block)
    return {name: decl for name, decl in applicable.items()
            if type(decl) is type(block) and name not in declared}


def _rewriter(candidates: Mapping[str, Block], used: dict[str, Block]) -> StatementMap:
    """The statement rewrite; it records each applied type in ``used``, in the order
    of first application."""
    def rewrite(s: ast.Statement) -> ast.Statement:
        if not isinstance(s, ast.MethodCallStatement):
            return s
        target = s.call.target
        if not (isinstance(target, ast.Member) and target.member == "apply" and
                isinstance(target.expr, ast.Name) and target.expr.name in candidates):
            return s
        applied = candidates[target.expr.name]
        used.setdefault(applied.name, applied)
        instance = ast.Name(applied.name + SUFFIX, span=target.expr.span)
        call = replace(s.call, target=replace(target, expr=instance))
        return replace(s, call=call)
    return rewrite


def _instances(used: dict[str, Block]) -> tuple[ast.Instantiation, ...]:
    return tuple(_instance(decl) for decl in used.values())


def _instance(decl: Block) -> ast.Instantiation:
    """``@name(N) C() C$direct;``: N is the type's own ``@name`` when it has one (the
    first, the one names are taken from), else the type's name."""
    at = decl.span
    named = next((a for a in decl.annotations if a.name == "name"), None)
    if named is None:
        named = ast.Annotation("name", (ast.StringLiteral(decl.name, span=at),),
                               f'"{decl.name}"', span=at)
    return ast.Instantiation(decl.name + SUFFIX, ast.NamedType(decl.name, span=at), (),
                             annotations=(named,), span=at)


def _declared_in(block: Block) -> set[str]:
    """Every name the block declares: parameters, locals, states, block declarations."""
    names = {p.name for p in block.params + block.constructor_params}
    names.update(t.name for t in block.type_params)
    names.update(d.name for d in block.locals)
    if isinstance(block, ast.ControlDecl):
        if block.apply is not None:
            names.update(_block_declarations(block.apply))
    else:
        for state in block.states:
            names.add(state.name)
            for statement in state.statements:
                names.update(_block_declarations(statement))
    return names


def _block_declarations(s: ast.Statement) -> Iterator[str]:
    if isinstance(s, ast.DeclarationStatement):
        yield s.decl.name
    elif isinstance(s, ast.BlockStatement):
        for inner in s.statements:
            yield from _block_declarations(inner)
    elif isinstance(s, ast.IfStatement):
        yield from _block_declarations(s.then)
        if s.otherwise is not None:
            yield from _block_declarations(s.otherwise)
    elif isinstance(s, ast.SwitchStatement):
        for case in s.cases:
            if case.body is not None:
                yield from _block_declarations(case.body)
    elif isinstance(s, ast.ForStatement):
        for inner in s.init:
            yield from _block_declarations(inner)
        yield from _block_declarations(s.body)
