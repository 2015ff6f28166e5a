"""The mid end: small AST-to-AST passes between the checker and the converters.

Each pass takes the checked program and returns one with the same meaning in fewer
forms, so the converters (lower/, then bmv2/ and p4info/) handle less. ``run_midend``
runs them in order (pipeline.py); every pass is usable and tested on its own.
"""
