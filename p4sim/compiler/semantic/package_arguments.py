"""What the main package is given: its arguments in parameter order, and the control or
parser type each one instantiates. The checker and lowering read ``main`` alike."""
from __future__ import annotations

from p4sim.compiler import ast
from p4sim.compiler.semantic.scope import DeclBinding, Scope


def in_parameter_order(main: ast.Instantiation, params: tuple[ast.Parameter, ...]
                       ) -> list[ast.Expression | None]:
    """One argument per parameter (None where none is given): named arguments
    (``ig = I()``) may come in any order, positional ones fill the rest in order."""
    by_name = {a.name: a.value for a in main.args if a.name}
    positional = [a.value for a in main.args if not a.name]
    out: list[ast.Expression | None] = []
    for index, param in enumerate(params):
        value = by_name.get(param.name)
        if value is None and not by_name and index < len(positional):
            value = positional[index]
        out.append(value)
    return out


def instantiated_block(arg: ast.Expression, scope: Scope
                       ) -> tuple[str, tuple[ast.Argument, ...]] | None:
    """The type name a package argument instantiates and its constructor arguments:
    ``I(...)``, or the name of an instance declared as ``I(...) ig;``; None otherwise."""
    if isinstance(arg, ast.ConstructorCall) and isinstance(arg.type, ast.NamedType):
        return arg.type.name, arg.args
    if isinstance(arg, ast.MethodCall) and isinstance(arg.target, ast.Name):
        return arg.target.name, arg.args
    if isinstance(arg, ast.Name):
        instance = scope.lookup(arg.name)
        if isinstance(instance, DeclBinding) and isinstance(instance.decl, ast.Instantiation) \
                and isinstance(instance.decl.type, ast.NamedType):
            return instance.decl.type.name, instance.decl.args
    return None
