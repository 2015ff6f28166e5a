"""Lowering: from the AST (with semantic information) to a BMv2-shaped IR."""
