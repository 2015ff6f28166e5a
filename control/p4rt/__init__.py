"""Typed P4Runtime client used by the controller, the demo and the tools."""
