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
    return [annotation_text(a) for a in annots
            if a.name not in _REPRESENTED_ELSEWHERE and a.name not in skip]


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


def fill_annotations(message: object, item: Named) -> None:
    """Set ``annotations`` and ``doc`` of a message that has both fields."""
    message.annotations.extend(annotation_strings(item.annotations))  # type: ignore[attr-defined]
    doc = documentation(item)
    if doc is not None:
        message.doc.CopyFrom(doc)  # type: ignore[attr-defined]
