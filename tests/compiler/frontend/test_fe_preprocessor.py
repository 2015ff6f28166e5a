"""Preprocessor: macros, conditionals, includes and the locations of expanded tokens."""
from pathlib import Path

import pytest

from p4sim.compiler.errors import CompileError
from p4sim.compiler.preprocessor import Preprocessor, preprocess_file, preprocess_text, raw_text


def expand(text: str, **defines: str) -> str:
    return raw_text(preprocess_text(text, "t.p4", defines=defines))


def test_object_like_macros_expand_recursively() -> None:
    assert expand("#define A B + 1\n#define B 2\nA") == "2 + 1"


def test_self_referential_macro_does_not_loop() -> None:
    assert expand("#define X X + 1\nX") == "X + 1"


def test_function_like_macro_substitutes_expanded_arguments() -> None:
    text = "#define W 8\n#define ADD(a, b) ((a)+(b))\nADD(W, f(1, 2))"
    assert "".join(expand(text).split()) == "((8)+(f(1,2)))"


def test_function_like_macro_name_without_arguments_is_left_alone() -> None:
    assert expand("#define F(x) x\nF + 1") == "F + 1"


def test_stringize_and_paste() -> None:
    assert expand('#define S(x) #x\nS(a + b)') == '"a + b"'
    assert expand("#define CAT(a, b) a ## b\nCAT(foo, _bar)") == "foo_bar"


def test_variadic_macro() -> None:
    assert "".join(expand("#define V(f, ...) f(__VA_ARGS__)\nV(g, 1, 2)").split()) == "g(1,2)"


def test_undef() -> None:
    assert expand("#define A 1\n#undef A\nA") == "A"


@pytest.mark.parametrize(
    "condition, taken",
    [
        ("1", True), ("0", False), ("2 > 1 && 3", True), ("defined(A)", True),
        ("defined A", True), ("defined(B)", False), ("!defined(B)", True),
        ("A == 5", True), ("A >> 1 == 2", True), ("(A + 1) * 2 == 12", True),
        ("UNKNOWN", False), ("1 ? 0 : 1", False), ("0x10 == 16", True),
    ],
)
def test_if_expressions(condition: str, taken: bool) -> None:
    text = f"#define A 5\n#if {condition}\nyes\n#else\nno\n#endif"
    assert expand(text) == ("yes" if taken else "no")


def test_elif_chain_takes_first_true_branch_only() -> None:
    text = "#if 0\na\n#elif 1\nb\n#elif 1\nc\n#else\nd\n#endif"
    assert expand(text) == "b"


def test_nested_conditionals_inside_a_dead_branch_stay_dead() -> None:
    text = "#if 0\n#if 1\na\n#else\nb\n#endif\n#else\nc\n#endif"
    assert expand(text) == "c"


def test_ifdef_ifndef_and_command_line_defines() -> None:
    text = "#ifdef FOO\nfoo FOO\n#endif\n#ifndef BAR\nnobar\n#endif"
    assert expand(text, FOO="7") == "foo 7 nobar"
    assert expand(text) == "nobar"


def test_line_continuation_in_define() -> None:
    assert expand("#define A 1 + \\\n 2\nA") == "1 + 2"


def test_includes_search_local_dir_then_include_dirs(tmp_path: Path) -> None:
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "lib.p4").write_text("#pragma once\nlib_token\n")
    (tmp_path / "local.p4").write_text("local_token\n")
    main = tmp_path / "main.p4"
    main.write_text('#include "local.p4"\n#include <lib.p4>\n#include <lib.p4>\nend\n')
    tokens = preprocess_file(str(main), include_dirs=[str(tmp_path / "inc")])
    assert [t.text for t in tokens] == ["local_token", "lib_token", "end"]
    lib_token = tokens[1]
    assert lib_token.span.file.endswith("lib.p4")
    assert lib_token.span.line == 2


def test_include_guard_prevents_double_inclusion(tmp_path: Path) -> None:
    (tmp_path / "g.p4").write_text("#ifndef G\n#define G\nonce\n#endif\n")
    main = tmp_path / "m.p4"
    main.write_text('#include "g.p4"\n#include "g.p4"\n')
    assert [t.text for t in preprocess_file(str(main))] == ["once"]


def test_expanded_tokens_are_located_at_the_macro_use() -> None:
    tokens = preprocess_text("#define V 1 + 2\n\n  x = V;", "m.p4")
    plus = next(t for t in tokens if t.text == "+")
    assert (plus.span.line, plus.span.col) == (3, 7)


def test_macro_table_is_per_instance() -> None:
    first = Preprocessor()
    first.define_from_command_line("ONLY_HERE", "1")
    second = Preprocessor()
    assert "ONLY_HERE" in first.macros
    assert "ONLY_HERE" not in second.macros


@pytest.mark.parametrize(
    "text, message",
    [
        ("#if 1\n", "unterminated conditional"),
        ("#endif\n", "#endif without #if"),
        ("#bogus\n", "unknown preprocessor directive"),
        ('#include "nope.p4"\n', "cannot find include file"),
        ("#error stop here\n", "#error stop here"),
        ("#define F(a) a\nF(1, 2)\n", "expects 1 argument"),
        ("#define F(a) a\nF(1\n", "unterminated argument list"),
        ("#if 1 +\n#endif\n", "unexpected end of #if expression"),
        ("#if 1 / 0\n#endif\n", "division by zero"),
    ],
)
def test_directive_errors(text: str, message: str) -> None:
    with pytest.raises(CompileError, match=message):
        preprocess_text(text, "bad.p4")


def test_line_and_file_builtins() -> None:
    tokens = preprocess_text("\n\nx = __LINE__; f = __FILE__;", "dir/file.p4")
    line = next(t for t in tokens if t.kind == "INTEGER")
    assert line.value.value == 3
    name = next(t for t in tokens if t.kind == "STRING")
    assert name.value == "dir/file.p4"


def test_a_paste_that_forms_no_token_keeps_both_side_by_side() -> None:
    """p4c runs cpp in assembler mode, where ``>`` ## ``v4`` is no error: the two tokens
    stay, unspaced (SONiC DASH's ACL macros rely on it)."""
    text = "#define P(prefix) bit<16> ## prefix ## _a\nP(v4)"
    assert expand(text) == "bit<16>v4_a"
    tokens = preprocess_text(text, "t.p4")
    assert [t.text for t in tokens] == ["bit", "<", "16", ">", "v4_a"]


def test_stray_characters_are_errors_only_in_live_code() -> None:
    # an unused #define with a lone quote (as sonic-pins' versions.h has one) and odd
    # characters in a dead branch pass, as with cpp
    assert expand('#define BROKEN "\n#if 0\ndon\'t $\n#endif\nx') == "x"
    with pytest.raises(CompileError, match="unterminated string literal") as error:
        preprocess_text('#define BROKEN "\nBROKEN', "t.p4")
    assert error.value.span.line == 2   # where the macro is used, as for any expansion
    with pytest.raises(CompileError, match="unexpected character '\\$'"):
        preprocess_text("a $ b", "t.p4")
