"""Semantic analysis: types, name resolution, constant folding and checks."""
