"""Lexer: literals, punctuators, keywords and source positions."""
import pytest

from p4sim.compiler.errors import CompileError
from p4sim.compiler.lexer import tokenize
from p4sim.compiler.tokens import IDENT, INTEGER, KEYWORD, PUNCT, STRING, IntValue


@pytest.mark.parametrize(
    "text, expected",
    [
        ("42", IntValue(42)),
        ("0x2A", IntValue(42)),
        ("0X2a", IntValue(42)),
        ("0b101010", IntValue(42)),
        ("0o52", IntValue(42)),
        ("0d42", IntValue(42)),
        ("1_000_000", IntValue(1000000)),
        ("8w5", IntValue(5, 8, False)),
        ("16w0xFFFF", IntValue(0xFFFF, 16, False)),
        ("8w0b1010_1010", IntValue(0xAA, 8, False)),
        ("4s3", IntValue(3, 4, True)),
    ],
)
def test_integer_literals(text: str, expected: IntValue) -> None:
    (token,) = tokenize(text)
    assert token.kind == INTEGER
    assert token.text == text
    assert token.value == expected


@pytest.mark.parametrize("text", ["12abc", "0x", "0w5", "1s1", "0b102"])
def test_malformed_integer_literals_are_errors(text: str) -> None:
    with pytest.raises(CompileError, match="literal"):
        tokenize(text)


def test_multi_character_punctuators_are_single_tokens() -> None:
    texts = [t.text for t in tokenize("a |+| b |-| c &&& d .. e ++ f << g <= h >= i != j")]
    for op in ("|+|", "|-|", "&&&", "..", "++", "<<", "<=", ">=", "!="):
        assert op in texts


def test_right_shift_is_two_adjacent_greater_than_tokens() -> None:
    tokens = tokenize("a >> b > > c")
    gts = [t for t in tokens if t.text == ">"]
    assert len(gts) == 4
    assert not gts[1].space_before  # the second '>' of '>>' touches the first
    assert gts[3].space_before


def test_keywords_and_soft_keywords() -> None:
    kinds = {t.text: t.kind for t in tokenize("table apply state key actions bit priority")}
    assert kinds["table"] == KEYWORD
    assert kinds["bit"] == KEYWORD
    for soft in ("apply", "state", "key", "actions", "priority"):
        assert kinds[soft] == IDENT


def test_string_escapes() -> None:
    (token,) = tokenize(r'"a\"b\\c\nd"')
    assert token.kind == STRING
    assert token.value == 'a"b\\c\nd'


def test_positions_skip_comments_and_continuations() -> None:
    tokens = tokenize("a /* one\ntwo */ b\n// line\n  c \\\n d", "f.p4")
    positions = {t.text: (t.span.file, t.span.line, t.span.col) for t in tokens}
    assert positions["a"] == ("f.p4", 1, 1)
    assert positions["b"] == ("f.p4", 2, 8)
    assert positions["c"] == ("f.p4", 4, 3)
    assert positions["d"] == ("f.p4", 5, 2)
    by_text = {t.text: t for t in tokens}
    assert by_text["b"].at_line_start  # a comment spanning lines ends the line
    assert by_text["c"].at_line_start
    assert not by_text["d"].at_line_start  # a backslash-newline continues the line


def test_source_line_is_kept_for_carets() -> None:
    tokens = tokenize("x = 1;\n  y = 2;")
    y = next(t for t in tokens if t.text == "y")
    assert y.span.source_line == "  y = 2;"


def test_unexpected_character_is_located() -> None:
    with pytest.raises(CompileError) as caught:
        tokenize("a\n  $", "f.p4")
    assert str(caught.value.span) == "f.p4:2:3"


def test_punctuator_kinds() -> None:
    kinds = {t.text: t.kind for t in tokenize("{ } @ #")}
    assert set(kinds.values()) == {PUNCT}


def test_crlf_line_endings() -> None:
    tokens = tokenize("a = 1;\r\nb = \\\r\n 2;\r\n", "w.p4")
    b = next(t for t in tokens if t.text == "b")
    two = next(t for t in tokens if t.text == "2")
    assert (b.span.line, b.span.source_line) == (2, "b = \\")
    assert two.span.line == 3 and not two.at_line_start
