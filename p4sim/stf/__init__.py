"""STF (p4c's simple test format) parser and runner for p4sim and real BMv2."""
