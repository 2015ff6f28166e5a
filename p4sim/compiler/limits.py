"""Limits on program sizes, the same as p4c's defaults (``DefaultP4CConfiguration``).

Beyond being p4c-compatible they keep a mistyped number (``bit<4294967296>``) from
making the compiler try to build a value of that many bits and run out of memory.
"""

MAX_WIDTH = 2048  # bits of a bit<N>/int<N>/varbit<N> type or a sized literal
MAX_STACK_SIZE = 256  # elements of a header stack
