"""Topologies out of (and back into) other tools' formats.

- containerlab.py: a topology as a Containerlab lab (``fabricctl export --format
  containerlab``), one container per switch and host, so a fabric can outgrow one machine;
- clab_import.py: such a lab back as a topology (``fabricctl import``);
- clab_schema.py: the rules of Containerlab's published topology schema, checked by hand;
- toml_writer.py: a Topology written back as our own topology file.
"""
