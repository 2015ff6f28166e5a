"""BMv2 JSON emitters, one module per JSON section (see behavioral-model's
docs/JSON_format.md, version 2.23)."""
