"""Annotations and documentation as p4c writes them into P4Info: ``@name``/``@id`` are
represented by the preamble itself and ``@brief``/``@description`` by ``doc``, so they
are not repeated as annotation strings."""
from __future__ import annotations

from collections.abc import Iterable

from p4sim.compiler.control_plane import Annot, Named
from p4sim.compiler.p4info.message import Message

_REPRESENTED_ELSEWHERE = frozenset({"name", "id", "brief", "description"})


def annotation_text(annot: Annot) -> str:
    """The annotation as it appears in the source: ``@noWarn("unused")``."""
    if annot.body is None:
        return f"@{annot.name}"
    return f"@{annot.name}({annot.body.strip()})"


def annotation_strings(annots: Iterable[Annot], skip: frozenset[str] = frozenset()) -> list[str]:
    return [annotation_text(a) for a in annots if not a.structured
            and a.name not in _REPRESENTED_ELSEWHERE and a.name not in skip]


def add_structured_annotations(message: object, annots: Iterable[Annot]) -> None:
    """Every structured annotation (``@name[...]``), its values typed as P4Runtime's
    Expression (string, int64 or bool); source locations are not given, as in p4c."""
    for annot in annots:
        if not annot.structured:
            continue
        out = message.structured_annotations.add()  # type: ignore[attr-defined]
        out.name = annot.name
        if annot.pairs:
            for key, value in annot.pairs:
                pair = out.kv_pair_list.kv_pairs.add()
                pair.key = key
                _set_value(pair.value, value)
        elif annot.values:
            for value in annot.values:
                _set_value(out.expression_list.expressions.add(), value)


def _set_value(expression: Message, value: object) -> None:
    if isinstance(value, bool):
        expression.bool_value = value
    elif isinstance(value, int):
        expression.int64_value = value
    else:
        expression.string_value = value


def has_annotation(annots: Iterable[Annot], name: str) -> bool:
    return any(a.name == name for a in annots)


def documentation(item: Named) -> Message | None:
    """``doc`` from the model's doc fields, else from @brief/@description; None when
    neither is present (P4Runtime leaves ``doc`` unset then)."""
    brief = item.doc_brief
    description = item.doc_description
    for annot in item.annotations:
        if annot.name == "brief" and brief is None:
            brief = annot.string_arg()
        elif annot.name == "description" and description is None:
            description = annot.string_arg()
    if brief is None and description is None:
        return None
    doc = Message("Documentation")
    if brief is not None:
        doc.brief = brief
    if description is not None:
        doc.description = description
    return doc


def fill_annotations(message: object, item: Named, skip: frozenset[str] = frozenset()
                     ) -> None:
    """Set ``annotations`` and ``doc`` of a message that has both fields."""
    message.annotations.extend(  # type: ignore[attr-defined]
        annotation_strings(item.annotations, skip))
    add_structured_annotations(message, item.annotations)
    doc = documentation(item)
    if doc is not None:
        message.doc.CopyFrom(doc)  # type: ignore[attr-defined]
