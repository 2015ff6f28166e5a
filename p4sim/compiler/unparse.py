"""Printing an AST back as P4 source. Parsing the output gives an equal AST (spans
aside), which the round-trip tests rely on; it also helps when debugging later stages."""
from __future__ import annotations

from typing import Iterable

from p4sim.compiler import ast

_INDENT = "    "
_ATOMIC = (
    ast.IntLiteral, ast.BoolLiteral, ast.StringLiteral, ast.Name, ast.Member, ast.ArrayIndex,
    ast.Slice, ast.MethodCall, ast.ConstructorCall, ast.ListExpression, ast.StructExpression,
    ast.DefaultExpression, ast.DontCare, ast.TypeNameExpression, ast.InvalidHeader,
)


def unparse(node: ast.Node) -> str:
    """P4 source text for any AST node (a Program gives a whole compilable file)."""
    return _Unparser().node(node)


class _Unparser:
    def node(self, node: ast.Node, level: int = 0) -> str:
        if isinstance(node, ast.Type):
            return self.type(node)
        if isinstance(node, ast.Expression):
            return self.expr(node)
        if isinstance(node, ast.Statement):
            return self.statement(node, level)
        if isinstance(node, ast.Program):
            return "\n".join(self.declaration(d, 0) for d in node.declarations) + "\n"
        return self.declaration(node, level)

    # ------------------------------------------------------------------ annotations

    def annotations(self, annotations: Iterable[ast.Annotation], sep: str = " ") -> str:
        text = ""
        for a in annotations:
            if a.name == "pragma":  # its body runs to the end of the line
                text += f"@pragma {a.body or ''}\n"
            else:
                text += (f"@{a.name}[{a.body or ''}]" if a.structured else f"@{a.name}"
                         if a.body is None else f"@{a.name}({a.body})") + sep
        return text

    # ------------------------------------------------------------------ types

    def type(self, node: ast.Type) -> str:
        if isinstance(node, ast.BitType):
            return f"{'int' if node.signed else 'bit'}<{self.width(node.width)}>"
        if isinstance(node, ast.VarbitType):
            return f"varbit<{self.width(node.max_width)}>"
        simple = {
            ast.IntType: "int", ast.BoolType: "bool", ast.StringType: "string",
            ast.VoidType: "void", ast.ErrorType: "error", ast.MatchKindType: "match_kind",
            ast.DontCareType: "_",
        }
        if type(node) in simple:
            return simple[type(node)]
        if isinstance(node, ast.NamedType):
            prefix = "." if node.top_level else ""
            return prefix + node.name + self.type_args(node.type_args, empty_brackets=False)
        if isinstance(node, ast.StackType):
            return f"{self.type(node.element)}[{self.expr(node.size)}]"
        if isinstance(node, ast.TupleType):
            return "tuple" + self.type_args(node.elements, empty_brackets=True)
        raise TypeError(f"cannot unparse type {type(node).__name__}")

    def width(self, width: ast.Expression) -> str:
        if isinstance(width, ast.IntLiteral):
            return self.expr(width)
        return f"({self.expr(width)})"

    def type_args(self, types: Iterable[ast.Type], empty_brackets: bool) -> str:
        types = tuple(types)
        if not types and not empty_brackets:
            return ""
        return "<" + ", ".join(self.type(t) for t in types) + ">"

    def type_params(self, params: Iterable[ast.TypeParameter]) -> str:
        params = tuple(params)
        return "<" + ", ".join(p.name for p in params) + ">" if params else ""

    # ------------------------------------------------------------------ expressions

    def expr(self, node: ast.Expression) -> str:
        method = getattr(self, "expr_" + type(node).__name__, None)
        if method is None:
            raise TypeError(f"cannot unparse expression {type(node).__name__}")
        return method(node)

    def operand(self, node: ast.Expression) -> str:
        text = self.expr(node)
        return text if isinstance(node, _ATOMIC) else f"({text})"

    def expr_IntLiteral(self, node: ast.IntLiteral) -> str:
        if node.text:
            return node.text
        if node.width is None:
            return str(node.value)
        return f"{node.width}{'s' if node.signed else 'w'}{node.value}"

    def expr_BoolLiteral(self, node: ast.BoolLiteral) -> str:
        return "true" if node.value else "false"

    def expr_StringLiteral(self, node: ast.StringLiteral) -> str:
        escaped = (
            node.value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t")
            .replace("\r", "\\r")
        )
        return f'"{escaped}"'

    def expr_Name(self, node: ast.Name) -> str:
        return ("." if node.top_level else "") + node.name

    def expr_Member(self, node: ast.Member) -> str:
        return f"{self.operand(node.expr)}.{node.member}"

    def expr_TypeNameExpression(self, node: ast.TypeNameExpression) -> str:
        return self.type(node.type)

    def expr_ArrayIndex(self, node: ast.ArrayIndex) -> str:
        return f"{self.operand(node.expr)}[{self.expr(node.index)}]"

    def expr_Slice(self, node: ast.Slice) -> str:
        return f"{self.operand(node.expr)}[{self.expr(node.hi)}:{self.expr(node.lo)}]"

    def expr_Unary(self, node: ast.Unary) -> str:
        return f"{node.op}{self.operand(node.operand)}"

    def expr_Binary(self, node: ast.Binary) -> str:
        return f"{self.operand(node.left)} {node.op} {self.operand(node.right)}"

    def expr_Ternary(self, node: ast.Ternary) -> str:
        return f"{self.operand(node.cond)} ? {self.operand(node.then)} : {self.operand(node.otherwise)}"

    def expr_Cast(self, node: ast.Cast) -> str:
        return f"({self.type(node.type)}){self.operand(node.expr)}"

    def arguments(self, args: Iterable[ast.Argument]) -> str:
        parts = []
        for arg in args:
            value = self.expr(arg.value)
            parts.append(f"{arg.name} = {value}" if arg.name else value)
        return "(" + ", ".join(parts) + ")"

    def expr_MethodCall(self, node: ast.MethodCall) -> str:
        return self.operand(node.target) + self.type_args(node.type_args, False) + self.arguments(node.args)

    def expr_ConstructorCall(self, node: ast.ConstructorCall) -> str:
        return self.type(node.type) + self.arguments(node.args)

    def expr_ListExpression(self, node: ast.ListExpression) -> str:
        return "{" + ", ".join(self.expr(e) for e in node.elements) + "}"

    def expr_StructExpression(self, node: ast.StructExpression) -> str:
        parts = [f"{f.name} = {self.expr(f.value)}" for f in node.fields]
        body = "{" + ", ".join(parts + ["..."] * node.rest) + "}"
        return body if node.type is None else f"({self.type(node.type)}){body}"

    def expr_InvalidHeader(self, node: ast.InvalidHeader) -> str:
        return "{#}" if node.type is None else f"({self.type(node.type)}){{#}}"

    def expr_DefaultExpression(self, node: ast.DefaultExpression) -> str:
        return "default"

    def expr_DontCare(self, node: ast.DontCare) -> str:
        return "_"

    def keyset(self, elements: tuple[ast.Expression, ...]) -> str:
        texts = [self.expr(e) for e in elements]
        return texts[0] if len(texts) == 1 else "(" + ", ".join(texts) + ")"

    def expr_SelectExpression(self, node: ast.SelectExpression, level: int = 0) -> str:
        pad = _INDENT * (level + 1)
        lines = ["select(" + ", ".join(self.expr(e) for e in node.exprs) + ") {"]
        for case in node.cases:
            keys = case.keyset.elements if isinstance(case.keyset, ast.ListExpression) else (case.keyset,)
            lines.append(f"{pad}{self.keyset(keys)}: {case.next_state};")
        lines.append(_INDENT * level + "}")
        return "\n".join(lines)

    # ------------------------------------------------------------------ statements

    def statement(self, node: ast.Statement, level: int) -> str:
        pad = _INDENT * level
        if isinstance(node, ast.BlockStatement):
            return pad + self.block(node, level)
        if isinstance(node, ast.Assignment):
            return f"{pad}{self.expr(node.left)} = {self.expr(node.right)};"
        if isinstance(node, ast.MethodCallStatement):
            return f"{pad}{self.expr(node.call)};"
        if isinstance(node, ast.EmptyStatement):
            return pad + ";"
        if isinstance(node, ast.ExitStatement):
            return pad + "exit;"
        if isinstance(node, ast.ReturnStatement):
            return pad + ("return;" if node.value is None else f"return {self.expr(node.value)};")
        if isinstance(node, ast.IfStatement):
            return pad + self.if_statement(node, level)
        if isinstance(node, ast.SwitchStatement):
            lines = [f"{pad}switch ({self.expr(node.expr)}) {{"]
            for case in node.cases:
                label = f"{pad}{_INDENT}{self.expr(case.label)}:"
                lines.append(label if case.body is None else f"{label} {self.block(case.body, level + 1)}")
            lines.append(pad + "}")
            return "\n".join(lines)
        if isinstance(node, ast.DeclarationStatement):
            return self.declaration(node.decl, level)
        if isinstance(node, ast.BreakStatement):
            return pad + "break;"
        if isinstance(node, ast.ContinueStatement):
            return pad + "continue;"
        if isinstance(node, ast.ForStatement):
            def clause(s: ast.Statement) -> str:
                return self.statement(s, 0).strip().rstrip(";")
            head = (", ".join(clause(s) for s in node.init) + "; "
                    + (self.expr(node.cond) if node.cond is not None else "") + "; "
                    + ", ".join(clause(s) for s in node.updates))
            return f"{pad}for ({head})" + self.branch(node.body, level)
        raise TypeError(f"cannot unparse statement {type(node).__name__}")

    def branch(self, node: ast.Statement, level: int) -> str:
        """A statement after ``if (...)`` or ``else``: blocks stay on the same line."""
        if isinstance(node, ast.BlockStatement):
            return " " + self.block(node, level)
        return "\n" + self.statement(node, level + 1)

    def if_statement(self, node: ast.IfStatement, level: int) -> str:
        text = f"if ({self.expr(node.cond)})" + self.branch(node.then, level)
        if node.otherwise is None:
            return text
        separator = " " if isinstance(node.then, ast.BlockStatement) else "\n" + _INDENT * level
        if isinstance(node.otherwise, ast.IfStatement):
            return text + separator + "else " + self.if_statement(node.otherwise, level)
        return text + separator + "else" + self.branch(node.otherwise, level)

    def block(self, node: ast.BlockStatement, level: int) -> str:
        inner = [self.statement(s, level + 1) for s in node.statements]
        body = "{\n" + "".join(line + "\n" for line in inner) + _INDENT * level + "}"
        return self.annotations(node.annotations) + body

    # ------------------------------------------------------------------ declarations

    def parameters(self, params: Iterable[ast.Parameter]) -> str:
        parts = []
        for p in params:
            text = self.annotations(p.annotations) + (p.direction + " " if p.direction else "")
            text += f"{self.type(p.type)} {p.name}"
            if p.default is not None:
                text += f" = {self.expr(p.default)}"
            parts.append(text)
        return "(" + ", ".join(parts) + ")"

    def declaration(self, node: ast.Node, level: int) -> str:
        method = getattr(self, "decl_" + type(node).__name__, None)
        if method is None:
            raise TypeError(f"cannot unparse declaration {type(node).__name__}")
        pad = _INDENT * level
        prefix = self.annotations(getattr(node, "annotations", ()) or ()) if not isinstance(
            node, (ast.Parameter, ast.StructField)) else ""
        return pad + prefix + method(node, level)

    def fields(self, fields: Iterable[ast.StructField], level: int) -> str:
        pad = _INDENT * (level + 1)
        lines = [f"{pad}{self.annotations(f.annotations)}{self.type(f.type)} {f.name};" for f in fields]
        return "{\n" + "".join(line + "\n" for line in lines) + _INDENT * level + "}"

    def decl_HeaderDecl(self, node: ast.HeaderDecl, level: int) -> str:
        return f"header {node.name}{self.type_params(node.type_params)} {self.fields(node.fields, level)}"

    def decl_HeaderUnionDecl(self, node: ast.HeaderUnionDecl, level: int) -> str:
        return f"header_union {node.name}{self.type_params(node.type_params)} {self.fields(node.fields, level)}"

    def decl_StructDecl(self, node: ast.StructDecl, level: int) -> str:
        return f"struct {node.name}{self.type_params(node.type_params)} {self.fields(node.fields, level)}"

    def decl_EnumDecl(self, node: ast.EnumDecl, level: int) -> str:
        members = ", ".join(
            m.name if m.value is None else f"{m.name} = {self.expr(m.value)}" for m in node.members
        )
        underlying = self.type(node.underlying) + " " if node.underlying is not None else ""
        return f"enum {underlying}{node.name} {{ {members} }}"

    def decl_ErrorDecl(self, node: ast.ErrorDecl, level: int) -> str:
        return "error { " + ", ".join(node.members) + " }"

    def decl_MatchKindDecl(self, node: ast.MatchKindDecl, level: int) -> str:
        return "match_kind { " + ", ".join(node.members) + " }"

    def decl_TypedefDecl(self, node: ast.TypedefDecl, level: int) -> str:
        return f"{'type' if node.is_new_type else 'typedef'} {self.type(node.type)} {node.name};"

    def decl_ConstantDecl(self, node: ast.ConstantDecl, level: int) -> str:
        return f"const {self.type(node.type)} {node.name} = {self.expr(node.value)};"

    def decl_VariableDecl(self, node: ast.VariableDecl, level: int) -> str:
        init = f" = {self.expr(node.init)}" if node.init is not None else ""
        return f"{self.type(node.type)} {node.name}{init};"

    def method(self, node: ast.MethodPrototype) -> str:
        text = self.annotations(node.annotations) + ("abstract " if node.is_abstract else "")
        if node.return_type is not None:
            text += self.type(node.return_type) + " "
        return text + node.name + self.type_params(node.type_params) + self.parameters(node.params) + ";"

    def decl_ExternDecl(self, node: ast.ExternDecl, level: int) -> str:
        pad = _INDENT * (level + 1)
        lines = [f"{pad}{self.method(m)}" for m in node.methods]
        body = "{\n" + "".join(line + "\n" for line in lines) + _INDENT * level + "}"
        return f"extern {node.name}{self.type_params(node.type_params)} {body}"

    def decl_ExternFunctionDecl(self, node: ast.ExternFunctionDecl, level: int) -> str:
        return (f"extern {self.type(node.return_type)} {node.name}{self.type_params(node.type_params)}"
                f"{self.parameters(node.params)};")

    def decl_FunctionDecl(self, node: ast.FunctionDecl, level: int) -> str:
        return (f"{self.type(node.return_type)} {node.name}{self.type_params(node.type_params)}"
                f"{self.parameters(node.params)} {self.block(node.body, level)}")

    def decl_ActionDecl(self, node: ast.ActionDecl, level: int) -> str:
        return f"action {node.name}{self.parameters(node.params)} {self.block(node.body, level)}"

    def decl_Instantiation(self, node: ast.Instantiation, level: int) -> str:
        text = f"{self.type(node.type)}{self.arguments(node.args)} {node.name}"
        if node.initializer:
            inner = [self.declaration(d, level + 1) for d in node.initializer]
            text += " = {\n" + "".join(line + "\n" for line in inner) + _INDENT * level + "}"
        return text + ";"

    def decl_ValueSetDecl(self, node: ast.ValueSetDecl, level: int) -> str:
        return f"value_set<{self.type(node.element_type)}>({self.expr(node.size)}) {node.name};"

    def decl_PackageDecl(self, node: ast.PackageDecl, level: int) -> str:
        return f"package {node.name}{self.type_params(node.type_params)}{self.parameters(node.params)};"

    def action_ref(self, ref: ast.ActionRef) -> str:
        text = self.annotations(ref.annotations) + ref.name
        return text + (self.arguments(ref.args) if ref.has_args else "")

    def table_property(self, prop: ast.TableProperty, level: int) -> str:
        pad = _INDENT * level
        inner = _INDENT * (level + 1)
        head = f"{pad}{self.annotations(prop.annotations)}{'const ' if prop.is_const else ''}{prop.name} = "
        if prop.key is not None:
            lines = [f"{inner}{self.expr(k.expr)}: {k.match_kind}"
                     f"{' ' + self.annotations(k.annotations).rstrip() if k.annotations else ''};"
                     for k in prop.key]
            return head + "{\n" + "".join(line + "\n" for line in lines) + pad + "}"
        if prop.actions is not None:
            lines = [f"{inner}{self.action_ref(a)};" for a in prop.actions]
            return head + "{\n" + "".join(line + "\n" for line in lines) + pad + "}"
        if prop.entries is not None:
            lines = []
            for entry in prop.entries:
                text = inner + self.annotations(entry.annotations) + ("const " if entry.is_const else "")
                if entry.priority is not None:
                    text += f"priority = {self.expr(entry.priority)}: "
                lines.append(f"{text}{self.keyset(entry.keyset)}: {self.action_ref(entry.action)};")
            return head + "{\n" + "".join(line + "\n" for line in lines) + pad + "}"
        if prop.action is not None:
            return head + self.action_ref(prop.action) + ";"
        assert prop.value is not None
        return head + self.expr(prop.value) + ";"

    def decl_TableDecl(self, node: ast.TableDecl, level: int) -> str:
        lines = [self.table_property(p, level + 1) for p in node.properties]
        return f"table {node.name} {{\n" + "".join(line + "\n" for line in lines) + _INDENT * level + "}"

    def decl_ParserState(self, node: ast.ParserState, level: int) -> str:
        lines = [self.statement(s, level + 1) for s in node.statements]
        pad = _INDENT * (level + 1)
        if isinstance(node.transition, ast.SelectExpression):
            lines.append(f"{pad}transition {self.expr_SelectExpression(node.transition, level + 1)}")
        elif node.transition is not None:
            lines.append(f"{pad}transition {self.expr(node.transition)};")
        return f"state {node.name} {{\n" + "".join(line + "\n" for line in lines) + _INDENT * level + "}"

    def header_of_block(self, keyword: str, node: ast.ParserDecl | ast.ControlDecl, level: int) -> str:
        text = f"{keyword} {node.name}{self.type_params(node.type_params)}{self.parameters(node.params)}"
        if node.constructor_params:
            text += self.parameters(node.constructor_params)
        return text

    def decl_ParserDecl(self, node: ast.ParserDecl, level: int) -> str:
        head = self.header_of_block("parser", node, level)
        if node.is_type_decl:
            return head + ";"
        inner = [self.declaration(d, level + 1) for d in (*node.locals, *node.states)]
        return head + " {\n" + "".join(line + "\n" for line in inner) + _INDENT * level + "}"

    def decl_ControlDecl(self, node: ast.ControlDecl, level: int) -> str:
        head = self.header_of_block("control", node, level)
        if node.is_type_decl:
            return head + ";"
        inner = [self.declaration(d, level + 1) for d in node.locals]
        assert node.apply is not None
        apply_block = ast.BlockStatement(node.apply.statements, span=node.apply.span)
        inner.append(_INDENT * (level + 1) + self.annotations(node.apply.annotations)
                     + "apply " + self.block(apply_block, level + 1))
        return head + " {\n" + "".join(line + "\n" for line in inner) + _INDENT * level + "}"
