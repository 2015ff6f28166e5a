"""parse_program / parse_text: include directories, defines, bundled includes, errors."""
from pathlib import Path

import pytest

from p4sim.compiler import ast
from p4sim.compiler.errors import CompileError
from p4sim.compiler.frontend import BUNDLED_INCLUDE_DIR, parse_program, parse_text


def names(program: ast.Program) -> list[str]:
    return [getattr(d, "name", type(d).__name__) for d in program.declarations]


def test_bundled_includes_are_found_without_include_dirs() -> None:
    program = parse_text("#include <core.p4>\n#include <v1model.p4>\n")
    declared = names(program)
    for expected in ("packet_in", "packet_out", "NoAction", "standard_metadata_t", "V1Switch",
                     "register", "action_selector", "mark_to_drop", "log_msg"):
        assert expected in declared


def test_user_include_dirs_are_searched_before_the_bundled_ones(tmp_path: Path) -> None:
    (tmp_path / "core.p4").write_text("const bit<8> MY_CORE = 1;\n")
    program = parse_text("#include <core.p4>\n", include_dirs=[str(tmp_path)])
    assert names(program) == ["MY_CORE"]


def test_defines_reach_the_program(tmp_path: Path) -> None:
    source = tmp_path / "prog.p4"
    source.write_text("#ifdef WITH_X\nconst bit<8> X = VALUE;\n#endif\n")
    program = parse_program(str(source), defines={"WITH_X": "1", "VALUE": "42"})
    (const,) = program.declarations
    assert const.value == ast.IntLiteral(42, text="42", span=None)
    assert parse_program(str(source)).declarations == ()


def test_missing_program_file_is_a_compile_error(tmp_path: Path) -> None:
    with pytest.raises(CompileError, match="cannot read"):
        parse_program(str(tmp_path / "absent.p4"))


def test_spans_point_into_the_file_that_declared_the_node(tmp_path: Path) -> None:
    (tmp_path / "lib.p4").write_text("\n\nheader lib_t { bit<8> f; }\n")
    main = tmp_path / "main.p4"
    main.write_text('#include "lib.p4"\nstruct s_t { lib_t l; }\n')
    header, struct = parse_program(str(main)).declarations
    assert (Path(header.span.file).name, header.span.line) == ("lib.p4", 3)
    assert (Path(struct.span.file).name, struct.span.line) == ("main.p4", 2)


def test_v1model_standard_metadata_fields_in_bmv2_order() -> None:
    program = parse_program(str(Path(BUNDLED_INCLUDE_DIR) / "v1model.p4"))
    (std,) = [d for d in program.declarations if getattr(d, "name", "") == "standard_metadata_t"]
    fields = []
    for f in std.fields:
        t = f.type
        fields.append((f.name, t.width.value if isinstance(t, ast.BitType) else "error"))
    assert fields == [
        ("ingress_port", 9), ("egress_spec", 9), ("egress_port", 9), ("instance_type", 32),
        ("packet_length", 32), ("enq_timestamp", 32), ("enq_qdepth", 19), ("deq_timedelta", 32),
        ("deq_qdepth", 19), ("ingress_global_timestamp", 48), ("egress_global_timestamp", 48),
        ("mcast_grp", 16), ("egress_rid", 16), ("checksum_error", 1), ("parser_error", "error"),
        ("priority", 3),
    ]


def test_core_declares_the_standard_errors_and_match_kinds() -> None:
    program = parse_text("#include <v1model.p4>\n")
    errors = [m for d in program.declarations if isinstance(d, ast.ErrorDecl) for m in d.members]
    assert errors == ["NoError", "PacketTooShort", "NoMatch", "StackOutOfBounds", "HeaderTooShort",
                      "ParserTimeout", "ParserInvalidArgument"]
    kinds = [m for d in program.declarations if isinstance(d, ast.MatchKindDecl) for m in d.members]
    assert kinds == ["exact", "ternary", "lpm", "range", "optional", "selector"]


def test_v1model_version_macro() -> None:
    """p4c's default version is 20180101; PortId_t and the other typedefs come with
    20200408 only, so an older program may declare its own."""
    program = parse_text("#include <v1model.p4>\nconst bit<32> V = V1MODEL_VERSION;\n")
    assert program.declarations[-1].value.value == 20180101
    names = {getattr(d, "name", None) for d in program.declarations}
    assert "PortId_t" not in names
    newer = parse_text("#define V1MODEL_VERSION 20200408\n#include <v1model.p4>\n")
    assert {"PortId_t", "CloneSessionId_t"} <= {getattr(d, "name", None)
                                                for d in newer.declarations}


def test_v1model_hash_algorithms_and_log_msg_overloads() -> None:
    program = parse_text("#include <v1model.p4>\n")
    by_name: dict[str, list] = {}
    for d in program.declarations:
        by_name.setdefault(getattr(d, "name", ""), []).append(d)
    (algo,) = by_name["HashAlgorithm"]
    assert [m.name for m in algo.members] == [
        "crc32", "crc32_custom", "crc16", "crc16_custom", "random", "identity", "csum16", "xor16"
    ]
    log_msgs = by_name["log_msg"]
    assert [len(d.params) for d in log_msgs] == [1, 2]
    assert log_msgs[1].type_params == (ast.TypeParameter("T", span=None),)
    (v1switch,) = by_name["V1Switch"]
    assert [p.name for p in v1switch.params] == ["p", "vr", "ig", "eg", "ck", "dep"]
