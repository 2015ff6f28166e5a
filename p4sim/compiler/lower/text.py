"""P4 source text of an expression, for key names and source_info fragments."""
from __future__ import annotations

from p4sim.compiler import ast


def expr_text(e: ast.Expression) -> str:
    if isinstance(e, ast.Name):
        return ("." if e.top_level else "") + e.name
    if isinstance(e, ast.Member):
        return f"{expr_text(e.expr)}.{e.member}"
    if isinstance(e, ast.IntLiteral):
        return e.text or str(e.value)
    if isinstance(e, ast.BoolLiteral):
        return "true" if e.value else "false"
    if isinstance(e, ast.StringLiteral):
        return f'"{e.value}"'
    if isinstance(e, ast.ArrayIndex):
        return f"{expr_text(e.expr)}[{expr_text(e.index)}]"
    if isinstance(e, ast.Slice):
        return f"{expr_text(e.expr)}[{expr_text(e.hi)}:{expr_text(e.lo)}]"
    if isinstance(e, ast.Unary):
        return f"{e.op}{expr_text(e.operand)}"
    if isinstance(e, ast.Binary):
        return f"{expr_text(e.left)} {e.op} {expr_text(e.right)}"
    if isinstance(e, ast.Ternary):
        return f"{expr_text(e.cond)} ? {expr_text(e.then)} : {expr_text(e.otherwise)}"
    if isinstance(e, ast.Cast):
        return f"({type_text(e.type)}){expr_text(e.expr)}"
    if isinstance(e, ast.MethodCall):
        args = ", ".join(expr_text(a.value) for a in e.args)
        targs = ""
        if e.type_args:
            targs = "<" + ", ".join(type_text(t) for t in e.type_args) + ">"
        return f"{expr_text(e.target)}{targs}({args})"
    if isinstance(e, ast.ListExpression):
        return "{" + ", ".join(expr_text(x) for x in e.elements) + "}"
    if isinstance(e, ast.DefaultExpression):
        return "default"
    if isinstance(e, ast.DontCare):
        return "_"
    if isinstance(e, ast.TypeNameExpression):
        return type_text(e.type)
    return type(e).__name__


def type_text(t: ast.Type) -> str:
    if isinstance(t, ast.BitType):
        return f"{'int' if t.signed else 'bit'}<{expr_text(t.width)}>"
    if isinstance(t, ast.NamedType):
        return t.name
    if isinstance(t, ast.BoolType):
        return "bool"
    if isinstance(t, ast.ErrorType):
        return "error"
    return type(t).__name__


def source_info(node: ast.Node, fragment: str | None = None) -> dict:
    span = node.span
    if fragment is None:
        line = span.source_line.rstrip("\n") if span.source_line else ""
        rest = line[span.col - 1:] if line else ""
        if ";" in rest:
            rest = rest[:rest.index(";")]
        fragment = rest.strip().rstrip("{").strip()
    return {"filename": span.file, "line": span.line, "column": span.col,
            "source_fragment": fragment}
