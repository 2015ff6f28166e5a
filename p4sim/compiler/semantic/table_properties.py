"""What a table's properties say of each other, checked in every table, applied or not:
the key does not read the table itself; the default action is one the actions list
(above it) names; entries come after the key, take priorities only where a key match
can overlap, from the first entry on when given at all, and repeat the actions list's
binding; ``largest_priority_wins`` is a bool and ``priority_delta`` a positive integer
(P4_16 spec, "Entries")."""
from __future__ import annotations

from p4sim.compiler import ast
from p4sim.compiler.errors import CompileError
from p4sim.compiler.semantic.expr_types import ExprTyper
from p4sim.compiler.semantic.scope import DeclBinding, Scope
from p4sim.compiler.unparse import unparse

# match kinds whose matches can overlap, so that entries need an order
_ORDERED_KINDS = ("ternary", "range", "optional")


def check_table_properties(decl: ast.TableDecl, typer: ExprTyper) -> None:
    props = {p.name: p for p in decl.properties}
    _check_key(decl, props.get("key"))
    _check_default_action(decl, typer.scope)
    entries = props.get("entries")
    if entries is not None:
        _check_entries(decl, entries, props.get("key"), props.get("actions"))
    _check_priority_properties(props, typer)


def _check_key(decl: ast.TableDecl, key: ast.TableProperty | None) -> None:
    for element in key.key or () if key is not None else ():
        if any(isinstance(n, ast.Name) and n.name == decl.name for n in ast.walk(element.expr)):
            raise CompileError(element.span, f"table '{decl.name}': its key cannot refer to "
                               "the table itself")


def _check_default_action(decl: ast.TableDecl, scope: Scope) -> None:
    listed: list[ast.ActionRef] | None = None
    for prop in decl.properties:
        if prop.actions is not None:
            listed = list(prop.actions)
        if prop.action is None:
            continue
        if listed is None:
            raise CompileError(prop.span, f"table '{decl.name}': its default_action comes "
                               "before the actions list it must be one of")
        if not any(_action_decl(scope, prop.action) is _action_decl(scope, ref)
                   for ref in listed):
            raise CompileError(prop.action.span, f"default action "
                               f"'{prop.action.name.lstrip('.')}' is not in the actions of "
                               f"table '{decl.name}'")


def _check_entries(decl: ast.TableDecl, prop: ast.TableProperty,
                   key: ast.TableProperty | None, actions: ast.TableProperty | None) -> None:
    if key is not None and decl.properties.index(prop) < decl.properties.index(key):
        raise CompileError(prop.span, f"table '{decl.name}': the entries come before the "
                           "key they match")
    entries = prop.entries or ()
    ordered = any(k.match_kind in _ORDERED_KINDS for k in (key.key or () if key else ()))
    for entry in entries:
        if entry.priority is not None and not ordered:
            raise CompileError(entry.span, f"table '{decl.name}': its keys match by exact or "
                               "lpm only, so its entries take no priorities")
    if any(e.priority is not None for e in entries) and entries[0].priority is None:
        raise CompileError(entries[0].span, f"table '{decl.name}': this entry needs a "
                           "priority, since later entries give theirs")
    bound = {ref.name.lstrip("."): tuple(unparse(a.value) for a in ref.args)
             for ref in (actions.actions or () if actions is not None else ())}
    for entry in entries:
        for given, text in zip(entry.action.args, bound.get(entry.action.name.lstrip("."), ())):
            if unparse(given.value) != text:
                raise CompileError(given.span, f"argument {unparse(given.value)} of "
                                   f"'{entry.action.name}' differs from the {text} its "
                                   "actions list binds")


def _check_priority_properties(props: dict[str, ast.TableProperty], typer: ExprTyper) -> None:
    """Whether or not an entry uses them."""
    wins = props.get("largest_priority_wins")
    if wins is not None and not isinstance(_constant(wins, typer), bool):
        raise CompileError(wins.value.span if wins.value else wins.span, "table property "
                           "'largest_priority_wins' must be a bool constant")
    delta = props.get("priority_delta")
    if delta is None:
        return
    step = _constant(delta, typer)
    if not isinstance(step, int) or isinstance(step, bool):
        raise CompileError(delta.value.span if delta.value else delta.span, "table property "
                           "'priority_delta' must be an integer constant")
    if step <= 0:
        raise CompileError(delta.span, "table property 'priority_delta' must be a positive "
                           "integer")


def _constant(prop: ast.TableProperty, typer: ExprTyper) -> object:
    return typer.constant(prop.value) if prop.value is not None else None


def _action_decl(scope: Scope, ref: ast.ActionRef) -> object:
    """The declaration an action reference names (``.a``: the top-level one)."""
    where = scope.root() if ref.name.startswith(".") else scope
    binding = where.lookup(ref.name.lstrip("."))
    return binding.decl if isinstance(binding, DeclBinding) else binding
