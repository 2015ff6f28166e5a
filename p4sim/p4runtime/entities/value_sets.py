"""ValueSetEntry: the members of a parser value set, replaced as a whole by MODIFY.

The switch stores a value set as (value, mask) pairs over the concatenation of its
fields (BMv2's compressed bitwidth); P4Runtime sends one FieldMatch per field.
"""
from __future__ import annotations

from typing import Iterator

from p4.config.v1 import p4info_pb2
from p4.v1 import p4runtime_pb2

from p4sim.p4runtime import codec
from p4sim.p4runtime.entities.indexed_externs import require_modify
from p4sim.p4runtime.errors import Code, P4RuntimeError, from_codec_error, invalid

MatchType = p4info_pb2.MatchField.MatchType


class ValueSets:
    def __init__(self, state):
        self.state = state

    def _runtime(self, info):
        try:
            return self.state.runtime.value_sets[info.preamble.name]
        except KeyError:
            raise P4RuntimeError(Code.INTERNAL, f"value set '{info.preamble.name}' is "
                                                "not in the device config") from None

    def _pack(self, info, member: p4runtime_pb2.ValueSetMember) -> tuple[int, int]:
        by_id = {fm.field_id: fm for fm in member.match}
        if len(by_id) != len(member.match) or set(by_id) - {f.id for f in info.match}:
            raise invalid(f"value set '{info.preamble.name}': bad or repeated field IDs")
        value = mask = 0
        for field in info.match:
            full = (1 << field.bitwidth) - 1
            try:
                if field.id in by_id:
                    match = codec.decode_field_match(by_id[field.id], field.match_type,
                                                     field.bitwidth, field.name)
                else:
                    match = codec.wildcard(field.match_type, field.bitwidth)
            except codec.CodecError as exc:
                raise from_codec_error(exc) from None
            if isinstance(match, codec.ExactMatch):
                v, m = match.value, full
            elif isinstance(match, codec.TernaryMatch):
                v, m = match.value, match.mask
            elif isinstance(match, codec.LpmMatch):
                v, m = match.value, full ^ ((1 << (field.bitwidth - match.prefix_len)) - 1)
            else:
                raise P4RuntimeError(Code.UNIMPLEMENTED, "value set match type "
                                     f"{codec.kind_name(field.match_type)} not supported")
            value = (value << field.bitwidth) | v
            mask = (mask << field.bitwidth) | m
        return value, mask

    def _unpack(self, info, value: int, mask: int) -> p4runtime_pb2.ValueSetMember:
        member = p4runtime_pb2.ValueSetMember()
        shift = sum(f.bitwidth for f in info.match)
        for field in info.match:
            shift -= field.bitwidth
            full = (1 << field.bitwidth) - 1
            v, m = (value >> shift) & full, (mask >> shift) & full
            match: codec.Match
            if field.match_type == MatchType.TERNARY:
                match = codec.TernaryMatch(v, m)
            elif field.match_type == MatchType.LPM:
                match = codec.LpmMatch(v, bin(m).count("1"))
            else:
                match = codec.ExactMatch(v)
            fm = codec.encode_field_match(field.id, match, field.bitwidth)
            if fm is not None:
                member.match.append(fm)
        return member

    def write(self, kind: int, msg: p4runtime_pb2.ValueSetEntry) -> None:
        require_modify(kind, "value set")
        info = self.state.index.lookup("value_sets", msg.value_set_id)
        if info.size and len(msg.members) > info.size:
            raise P4RuntimeError(Code.RESOURCE_EXHAUSTED,
                                 f"value set '{info.preamble.name}' holds at most "
                                 f"{info.size} members ({len(msg.members)} given)")
        runtime = self._runtime(info)
        wanted = [self._pack(info, m) for m in msg.members]
        seen: set[tuple[int, int]] = set()
        for value, mask in wanted:    # the spec: duplicates break read-write symmetry
            if (value & mask, mask) in seen:
                raise P4RuntimeError(Code.ALREADY_EXISTS,
                                     f"value set '{info.preamble.name}': member "
                                     f"{value:#x}/{mask:#x} is given twice")
            seen.add((value & mask, mask))
        for value, mask in list(runtime.entries()):
            runtime.remove(value, mask)
        for value, mask in wanted:
            runtime.add(value, mask)

    def read(self, query: p4runtime_pb2.ValueSetEntry
             ) -> Iterator[p4runtime_pb2.ValueSetEntry]:
        ids = [query.value_set_id] if query.value_set_id else list(
            self.state.index.value_sets)
        for value_set_id in ids:
            info = self.state.index.lookup("value_sets", value_set_id)
            out = p4runtime_pb2.ValueSetEntry(value_set_id=value_set_id)
            for value, mask in self._runtime(info).entries():
                out.members.append(self._unpack(info, value, mask))
            yield out
