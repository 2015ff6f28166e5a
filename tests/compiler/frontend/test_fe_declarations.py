"""Top-level declarations: types, externs, functions, actions, packages, instances."""
import pytest

from p4sim.compiler import ast
from p4sim.compiler.errors import CompileError
from p4sim.compiler.frontend import parse_text

from fe_helpers import lit, parse_declarations


def only(text: str) -> ast.Node:
    (decl,) = parse_declarations(text)
    return decl


def test_constants_typedefs_and_new_types() -> None:
    const, typedef, newtype = parse_declarations(
        "const bit<16> T = 0x0800; typedef bit<48> mac_t; type bit<32> ip_t;"
    )
    assert const == ast.ConstantDecl("T", ast.BitType(lit(16), span=None), lit(2048, "0x0800"), span=None)
    assert isinstance(typedef, ast.TypedefDecl) and not typedef.is_new_type
    assert isinstance(newtype, ast.TypedefDecl) and newtype.is_new_type and newtype.name == "ip_t"


def test_typedef_name_is_usable_as_a_type_afterwards() -> None:
    decls = parse_declarations("typedef bit<8> b8; control K() { apply { b8 x = (b8) 1; } }")
    stmt = decls[1].apply.statements[0]
    assert isinstance(stmt, ast.DeclarationStatement)
    assert isinstance(stmt.decl.init, ast.Cast)


def test_headers_unions_structs_and_stacks() -> None:
    header, union, struct = parse_declarations(
        "header a_t { bit<8> x; varbit<32> v; }"
        "header_union u_t { a_t a; }"
        "struct g_t<T> { a_t[4] stack; T t; tuple<bit<8>, bool> tup; int i; @anno bool b; }"
    )
    assert isinstance(header, ast.HeaderDecl)
    assert isinstance(header.fields[1].type, ast.VarbitType)
    assert isinstance(union, ast.HeaderUnionDecl)
    assert struct.type_params == (ast.TypeParameter("T", span=None),)
    stack = struct.fields[0].type
    assert stack == ast.StackType(ast.NamedType("a_t", span=None), lit(4), span=None)
    assert struct.fields[2].type == ast.TupleType(
        (ast.BitType(lit(8), span=None), ast.BoolType(span=None)), span=None
    )
    assert isinstance(struct.fields[3].type, ast.IntType)
    assert struct.fields[4].annotations[0].name == "anno"


def test_bare_bit_is_one_bit_wide() -> None:
    header = only("header one_t { bit flag; }")
    assert header.fields[0].type == ast.BitType(lit(1), span=None)


def test_enums_plain_and_serializable() -> None:
    plain, serial = parse_declarations("enum E { A, B } enum bit<8> P { TCP = 6, UDP = 17, }")
    assert [m.name for m in plain.members] == ["A", "B"] and plain.underlying is None
    assert serial.underlying == ast.BitType(lit(8), span=None)
    assert [(m.name, m.value) for m in serial.members] == [("TCP", lit(6)), ("UDP", lit(17))]


def test_error_and_match_kind_declarations() -> None:
    err, kinds = parse_declarations("error { Oops, Bad } match_kind { fancy }")
    assert err == ast.ErrorDecl(("Oops", "Bad"), span=None)
    assert kinds == ast.MatchKindDecl(("fancy",), span=None)


def test_generic_extern_with_overloads_and_abstract_method() -> None:
    extern = only(
        "extern Thing<T> { Thing(); Thing(bit<8> n); abstract T f(in T x);"
        " @noSideEffects void g<U>(in U u, out T t); }"
    )
    assert isinstance(extern, ast.ExternDecl)
    assert extern.type_params == (ast.TypeParameter("T", span=None),)
    ctor1, ctor2, abstract, generic = extern.methods
    assert ctor1.return_type is None and ctor2.return_type is None and len(ctor2.params) == 1
    assert abstract.is_abstract and abstract.return_type == ast.NamedType("T", span=None)
    assert generic.type_params == (ast.TypeParameter("U", span=None),)
    assert [p.direction for p in generic.params] == ["in", "out"]
    assert generic.annotations[0].name == "noSideEffects"


def test_extern_functions_generic_and_with_optional_parameters() -> None:
    generic, optional = parse_declarations(
        "extern T pick<T>(in T a, in T b); extern void f(in bit<8> x, @optional in bit<8> y = 1);"
    )
    assert isinstance(generic, ast.ExternFunctionDecl)
    assert generic.return_type == ast.NamedType("T", span=None)
    assert optional.params[1].annotations[0].name == "optional"
    assert optional.params[1].default == lit(1)


def test_functions_and_top_level_actions() -> None:
    function, action = parse_declarations(
        "bit<8> max(in bit<8> a, in bit<8> b) { return a > b ? a : b; }"
        "action incr(inout bit<8> x, bit<8> by) { x = x + by; }"
    )
    assert isinstance(function, ast.FunctionDecl)
    assert isinstance(function.body.statements[0], ast.ReturnStatement)
    assert isinstance(action, ast.ActionDecl)
    assert [(p.direction, p.name) for p in action.params] == [("inout", "x"), ("", "by")]


def test_parser_control_and_package_prototypes() -> None:
    parser, control, package = parse_declarations(
        "parser Prs<H>(packet_in b, out H h);"
        "control Ctl<H>(inout H h);"
        "package Pkg<H>(Prs<H> p, Ctl<H> c);"
    )
    assert isinstance(parser, ast.ParserDecl) and parser.is_type_decl
    assert isinstance(control, ast.ControlDecl) and control.is_type_decl and control.apply is None
    assert package.params[0].type == ast.NamedType("Prs", (ast.NamedType("H", span=None),), span=None)


def test_control_with_constructor_parameters_and_locals() -> None:
    control = only(
        "control K(inout bit<8> x)(bit<8> init) {"
        "  ext<bit<8>>() e; bit<8> local = init; const bit<8> C = 1;"
        "  action a() { x = C; }"
        "  apply { a(); }"
        "}"
    )
    assert control.constructor_params[0].name == "init"
    kinds = [type(d).__name__ for d in control.locals]
    assert kinds == ["Instantiation", "VariableDecl", "ConstantDecl", "ActionDecl"]


def test_instantiation_with_abstract_method_initializer() -> None:
    _, control = parse_declarations(
        "extern V { V(); abstract bit<8> f(in bit<8> x); }"
        "control K() { V() v = { bit<8> f(in bit<8> x) { return x + 1; } }; apply { } }"
    )
    (decl,) = control.locals
    assert isinstance(decl, ast.Instantiation)
    (method,) = decl.initializer
    assert isinstance(method, ast.FunctionDecl) and method.name == "f"


def test_top_level_instantiation_with_constructor_arguments() -> None:
    decls = parse_declarations(
        "control A()(bit<8> n) { apply { } } package P(A a); P(A(8w1)) main;"
    )
    main = decls[-1]
    assert isinstance(main, ast.Instantiation) and main.name == "main"
    (arg,) = main.args
    assert arg.value == ast.ConstructorCall(
        ast.NamedType("A", span=None), (ast.Argument(ast.IntLiteral(1, 8, text="8w1", span=None), span=None),),
        span=None,
    )


def test_annotations_keep_raw_body_and_parse_expressions_when_possible() -> None:
    header = only(
        '@name("x") @id(5) @hidden @brief("a") '
        "@structured[k = 1] @unknown(1 +, x)\n@pragma weird ( tokens )\nheader a_t { bit<8> f; }"
    )
    by_name = {a.name: a for a in header.annotations}
    assert by_name["name"].args == (ast.StringLiteral("x", span=None),)
    assert by_name["name"].body == '"x"'
    assert by_name["id"].args == (lit(5),)
    assert by_name["hidden"].body is None and by_name["hidden"].args == ()
    assert by_name["unknown"].args == () and by_name["unknown"].body == "1 +, x"
    assert by_name["structured"].body == "k = 1"
    assert by_name["pragma"].body == "weird ( tokens )"  # the rest of the line, unparsed


def test_empty_declarations_are_skipped() -> None:
    assert parse_declarations(";;const bit<8> A = 1;;") == parse_declarations("const bit<8> A = 1;")


@pytest.mark.parametrize("text, message", [
    ("header h { bit<8> a }", "expected ';' after the field"),
    ("struct { }", "expected a struct name"),
    ("enum E { A B }", "expected '}' to close the enum"),
    ("extern void f(in bit<8> x)", "expected ';' after the extern function declaration"),
    ("control K() { }", "expected an 'apply' block"),
    ("control K() { apply { } apply { } }", "second apply block"),
    ("const bit<8> table = 1;", "found keyword 'table'"),
    ("@ name header h { }", "expected an annotation name"),
    ("+", "expected a declaration"),
])
def test_declaration_errors(text: str, message: str) -> None:
    with pytest.raises(CompileError, match=message.replace("(", r"\(").replace(")", r"\)")):
        parse_declarations(text)


def test_error_location_points_at_the_offending_token() -> None:
    with pytest.raises(CompileError) as caught:
        parse_text("header h {\n    bit<8> a\n}")
    span = caught.value.span
    # A missing ';' is reported right after the last token of its line.
    assert (span.line, span.col, span.source_line) == (2, 13, "    bit<8> a")


def test_unclosed_brace_error_notes_where_it_opened() -> None:
    with pytest.raises(CompileError) as caught:
        parse_text("control K() {\n    apply {\n        exit;\n")
    error = caught.value
    assert "expected '}' to close the block" in error.message
    assert any(":2:11" in note for note in error.notes)
