"""The p4sim target as users start it: the switch (``p4sim.switch``) composed with its
P4Runtime server (``p4sim.p4runtime``) and control channel behind simple_switch_grpc's
command line. Kept apart so that neither the switch nor the server imports the other."""
