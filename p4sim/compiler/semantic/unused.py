"""The warnings p4c's front end gives for declarations nothing refers to, in its words:
"Table t is not used; removing" and "x: unused instance" (p4c's unused-declarations
pass, ``--Wwarn=unused``).

p4c removes controls and parsers that nothing instantiates without a word, and with
them whatever they declare; it warns about a table or an instance (other than ``main``)
that no remaining code names, once per declaration, unless the declaration carries
``@noWarn("unused")``. References are found by name; a name counts wherever the program
writes it outside annotations (p4c resolves names before it removes anything, so a use
in an action that is never called still counts).
"""
from __future__ import annotations

from collections import Counter
from typing import Any, Iterator

from p4sim.compiler import ast
from p4sim.compiler.errors import CompileWarning

_BLOCKS = (ast.ControlDecl, ast.ParserDecl)


def unused_warnings(program: ast.Program) -> list[CompileWarning]:
    """The warnings, in declaration order."""
    names = _Names()
    live = _live_declarations(program, names)
    referenced_at_top = set().union(*(names(d) for d in live)) if live else set()
    warnings: list[CompileWarning] = []
    for decl in program.declarations:
        if decl not in live:
            continue
        if isinstance(decl, ast.Instantiation) and decl.name != "main":
            if decl.name not in referenced_at_top:
                warnings.extend(_warn(decl))
        elif isinstance(decl, _BLOCKS) and not decl.is_type_decl:
            warnings.extend(_block_warnings(decl, names))
    return warnings


class _Names:
    """``_names`` of each node, computed once (the checks ask for a node many times)."""

    def __init__(self) -> None:
        self._known: dict[int, set[str]] = {}

    def __call__(self, node: Any) -> set[str]:
        found = self._known.get(id(node))
        if found is None:
            found = self._known[id(node)] = _names(node)
        return found


def _live_declarations(program: ast.Program, names_of: _Names) -> list[Any]:
    """Top-level declarations left once every control and parser nothing names is
    removed (repeatedly: removing one may leave another unnamed)."""
    live = list(program.declarations)
    while True:
        names = [names_of(d) for d in live]
        keep = [d for k, d in enumerate(live)
                if not (isinstance(d, _BLOCKS) and not d.is_type_decl)
                or any(d.name in n for j, n in enumerate(names) if j != k)]
        if len(keep) == len(live):
            return live
        live = keep


def _block_warnings(decl: ast.ControlDecl | ast.ParserDecl, names_of: _Names
                    ) -> Iterator[CompileWarning]:
    """Tables and instances of one control or parser that nothing else in it names."""
    parts: list[Any] = list(decl.locals)
    if isinstance(decl, ast.ControlDecl):
        parts.append(decl.apply)
    else:
        parts.extend(decl.states)
    naming = Counter(name for part in parts for name in names_of(part))
    for local in decl.locals:
        if not isinstance(local, (ast.TableDecl, ast.Instantiation)):
            continue
        own = 1 if local.name in names_of(local) else 0
        if naming[local.name] - own == 0:
            yield from _warn(local)


def _warn(decl: ast.TableDecl | ast.Instantiation) -> Iterator[CompileWarning]:
    if _no_warn_unused(decl):
        return
    if isinstance(decl, ast.TableDecl):
        yield CompileWarning(decl.span, f"Table {decl.name} is not used; removing")
    else:
        yield CompileWarning(decl.span, f"{decl.name}: unused instance")


def _no_warn_unused(decl: ast.Declaration) -> bool:
    for a in decl.annotations:
        if a.name == "noWarn":
            texts = [e.value for e in a.args if isinstance(e, ast.StringLiteral)]
            if "unused" in texts or (a.body or "").strip().strip('"') == "unused":
                return True
    return False


def _names(node: Any) -> set[str]:
    """Every name written under ``node``: in expressions, types and action references."""
    found: set[str] = set()
    if not isinstance(node, ast.Node):
        return found
    for n in ast.walk(node):
        if isinstance(n, (ast.Name, ast.NamedType)):
            found.add(n.name)
        elif isinstance(n, ast.ActionRef):
            found.add(n.name.lstrip("."))
    return found
