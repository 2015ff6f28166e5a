"""Fully qualified names and control-plane annotations, as p4c spells them."""
from __future__ import annotations

from p4sim.compiler import ast
from p4sim.compiler.control_plane import Annot, AnnotationValue
from p4sim.compiler.errors import CompileError, SourceSpan
from p4sim.compiler.semantic.const_fold import NotConstant, fold
from p4sim.compiler.semantic.scope import Scope
from p4sim.compiler.semantic.types import BitsT, BoolT, IntT, StringT

# Consumed by the compiler rather than passed to P4Info (@hidden stays: the P4Info
# builder uses it to leave objects out).
HIDDEN_ANNOTATIONS = {"name", "id", "brief", "description", "defaultonly", "tableonly",
                      "field_list", "optional"}


def fresh_name(used: set[str], base: str) -> str:
    """``base``, or the first free ``base_0``, ``base_1``... (p4c's suffixing); the name
    returned is added to ``used``."""
    name, i = base, 0
    while name in used:
        name, i = f"{base}_{i}", i + 1
    used.add(name)
    return name


def duplicate_name(name: str, kind: str, span: SourceSpan, first: SourceSpan) -> CompileError:
    """Two objects one control-plane name: P4Runtime could not tell them apart, so p4c
    refuses the program ("Name ... is used for multiple ... objects in the P4Info
    message")."""
    return CompileError(span, f"name '{name}' is used for multiple {kind} objects in the "
                        "P4Info message", notes=(f"{first}: the other {kind} named '{name}'",))


def annotation(annotations: ast.Annotations, name: str) -> ast.Annotation | None:
    for a in annotations:
        if a.name == name:
            return a
    return None


def string_arg(a: ast.Annotation | None) -> str | None:
    if a is None:
        return None
    if a.args and isinstance(a.args[0], ast.StringLiteral):
        return a.args[0].value
    if a.body:
        text = a.body.strip()
        if len(text) >= 2 and text[0] == text[-1] == '"':
            return text[1:-1]
    return None


def int_arg(a: ast.Annotation | None) -> int | None:
    if a is None:
        return None
    if a.args and isinstance(a.args[0], ast.IntLiteral):
        return a.args[0].value
    if a.body:
        try:
            return int(a.body.strip(), 0)
        except ValueError:
            return None
    return None


def qualified(prefix: str, decl_name: str, annotations: ast.Annotations) -> str:
    """``prefix.name``, honouring ``@name`` (a leading dot makes it global)."""
    override = string_arg(annotation(annotations, "name"))
    name = override if override is not None else decl_name
    if name.startswith("."):
        return name[1:]
    return f"{prefix}.{name}" if prefix else name


def cp_annotations(annotations: ast.Annotations) -> tuple[Annot, ...]:
    """P4Info's annotations; structured ones all pass, as p4c passes them."""
    return tuple(_structured(a) if a.structured else Annot(a.name, a.body)
                 for a in annotations if a.structured or a.name not in HIDDEN_ANNOTATIONS)


def _structured(a: ast.Annotation) -> Annot:
    return Annot(a.name, a.body, True, tuple(_literal(e, a.name) for e in a.args),
                 tuple((key, _literal(e, a.name)) for key, e in a.pairs))


def _literal(e: ast.Expression, name: str) -> AnnotationValue:
    """A structured annotation's value: a string, an integer or a boolean known here."""
    try:
        value, vtype = fold(e, Scope())
    except NotConstant:
        value, vtype = None, None
    if isinstance(vtype, StringT) or isinstance(vtype, BoolT):
        return value  # type: ignore[no-any-return]
    if isinstance(vtype, (IntT, BitsT)) and not isinstance(value, bool):
        if not -(1 << 63) <= value < (1 << 63):
            raise CompileError(e.span, f"integer {value} in structured annotation '@{name}' "
                               "must fit in int64: use a string literal for larger values")
        return int(value)
    raise CompileError(e.span, f"structured annotation '@{name}' takes string, integer and "
                       "boolean literals (or expressions of them)")


def cp_extras(annotations: ast.Annotations) -> dict:
    """fixed_id / doc fields for a control-plane object."""
    return {
        "annotations": cp_annotations(annotations),
        "fixed_id": int_arg(annotation(annotations, "id")),
        "doc_brief": string_arg(annotation(annotations, "brief")),
        "doc_description": string_arg(annotation(annotations, "description")),
    }
