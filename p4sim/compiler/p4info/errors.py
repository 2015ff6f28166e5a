"""The one error type of P4Info generation."""
from __future__ import annotations


class P4InfoError(ValueError):
    """A control-plane model that cannot become a valid P4Info (bad @id, dangling
    reference, unknown output format). The message names the object and the cause."""
