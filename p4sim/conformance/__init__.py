"""``p4sim-diff``: compare p4sim's compiler and switch with the real toolchain (p4c-bm2-ss,
simple_switch_grpc), live when it is installed, else through its recorded outputs."""
