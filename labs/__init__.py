"""Teaching labs: small P4 programs with TODOs, their solutions and packet tests."""
