"""Small helpers shared by the front-end tests: parse a snippet in the right context."""
from p4sim.compiler import ast
from p4sim.compiler.frontend import parse_text

PRELUDE = """
header h_t { bit<8> f; bit<16> g; }
struct s_t { bit<8> a; bit<8> b; }
extern ext<T> { ext(); T get<U>(in U x); }
enum Color { Red, Green }
typedef bit<9> port_t;
"""


def parse_expression(text: str) -> ast.Expression:
    """``text`` as the initializer of a constant declared after PRELUDE."""
    program = parse_text(PRELUDE + f"const bit<8> X = {text};")
    decl = program.declarations[-1]
    assert isinstance(decl, ast.ConstantDecl)
    return decl.value


def parse_statements(text: str) -> tuple[ast.Statement, ...]:
    """``text`` as the body of an apply block (after PRELUDE)."""
    program = parse_text(PRELUDE + "control C(inout h_t h) { apply {\n" + text + "\n} }")
    control = program.declarations[-1]
    assert isinstance(control, ast.ControlDecl) and control.apply is not None
    return control.apply.statements


def parse_declarations(text: str) -> tuple[ast.Node, ...]:
    """Top-level declarations of ``text`` (after PRELUDE), without the prelude's."""
    prelude = parse_text(PRELUDE).declarations
    return parse_text(PRELUDE + text).declarations[len(prelude):]


def lit(value: int, text: str | None = None) -> ast.IntLiteral:
    return ast.IntLiteral(value, text=text if text is not None else str(value), span=NO)


def name(text: str) -> ast.Name:
    return ast.Name(text, span=NO)


def binary(op: str, left: ast.Expression, right: ast.Expression) -> ast.Binary:
    return ast.Binary(op, left, right, span=NO)


from p4sim.compiler.errors import NO_SPAN as NO  # noqa: E402  (used by the builders above)
