"""The harness's exceptions: one base, so a caller catches everything it may raise with
one clause, and subclasses for the callers that must tell the cases apart."""
from __future__ import annotations


class LabError(RuntimeError):
    """Something the harness set up (target, namespace, link, process) failed or never
    became ready."""


class TargetError(LabError):
    """TARGET names no known target, or the compiler or switch it selects is missing."""


class NetnsError(LabError):
    """A namespace, link or namespace switch (setns) could not be set up."""


class ProcessError(LabError):
    """A child process exited before it was ready, or would not exit when asked."""


class NotReady(LabError):
    """A readiness condition did not hold within its deadline."""
