"""What a table's properties say of each other, checked in every table, applied or not
(lowering checks only the tables the package reaches): the default action is one the
actions list names, the key does not read the table itself, entry priorities are given
from the first entry on when given at all, entries repeat the actions list's binding."""
from __future__ import annotations

from p4sim.compiler import ast
from p4sim.compiler.errors import CompileError
from p4sim.compiler.semantic.scope import DeclBinding, Scope
from p4sim.compiler.unparse import unparse


def check_table_properties(decl: ast.TableDecl, scope: Scope) -> None:
    """What a table's properties say of each other: the default action names one
    the actions list (above it) has; the key does not read the table itself; when
    some entries give a priority, the first does; an entry repeats the arguments
    the actions list binds."""
    bound: dict[str, tuple[str, ...]] = {}
    listed = False
    for prop in decl.properties:
        for key in prop.key or ():
            if any(isinstance(n, ast.Name) and n.name == decl.name for n in ast.walk(key.expr)):
                raise CompileError(key.span, f"table '{decl.name}': its key cannot "
                                   "refer to the table itself")
        if prop.actions is not None:
            listed = True
            bound.update((ref.name.lstrip("."), tuple(unparse(a.value) for a in ref.args))
                         for ref in prop.actions)
        if prop.action is not None and not listed:
            raise CompileError(prop.span, f"table '{decl.name}': its default_action "
                               "comes before the actions list it must be one of")
        if prop.action is not None and listed and not any(
                _action_decl(scope, prop.action) is _action_decl(scope, ref)
                for p2 in decl.properties for ref in p2.actions or ()):
            raise CompileError(prop.action.span, f"default action "
                               f"'{prop.action.name.lstrip('.')}' is not in the actions "
                               f"of table '{decl.name}'")
        entries = prop.entries or ()
        if any(e.priority is not None for e in entries) and entries[0].priority is None:
            raise CompileError(entries[0].span, f"table '{decl.name}': this entry needs "
                               "a priority, since later entries give theirs")
        for entry in entries:
            given = bound.get(entry.action.name.lstrip("."), ())
            for i, text in enumerate(given):
                if i < len(entry.action.args) and \
                        unparse(entry.action.args[i].value) != text:
                    raise CompileError(entry.action.args[i].span, f"argument "
                                       f"{unparse(entry.action.args[i].value)} of "
                                       f"'{entry.action.name}' differs from the {text} "
                                       "its actions list binds")


def _action_decl(scope: Scope, ref: ast.ActionRef) -> object:
    """The declaration an action reference names (``.a``: the top-level one)."""
    where = scope.root() if ref.name.startswith(".") else scope
    binding = where.lookup(ref.name.lstrip("."))
    return binding.decl if isinstance(binding, DeclBinding) else binding
