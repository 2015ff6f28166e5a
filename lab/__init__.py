"""The lab harness: what every demo, launcher, packet-test runner and test needs to run
switches and endpoints on this machine, written once.

One concept per module:

- ``target``: TARGET / SWITCH / P4C read from the environment into one frozen Target;
- ``errors``: the harness's exceptions (one base, LabError);
- ``readiness``: waiting for a condition, a TCP port or a gRPC server, with a deadline;
- ``process``: one managed child process (output kept and logged, readiness, stop by PID);
- ``switch``: a switch program as such a process (command line, ready line, its CLI);
- ``namespace``: network namespaces, veth pairs, running code inside a namespace;
- ``packet_socket``: raw packet sockets on an interface, and receiving from them;
- ``tcp_forward``: a loopback port here relaying to a TCP server inside a namespace;
- ``ptf_session``: ``python -m lab.ptf_session``, a PTF run against one switch.

The harness imports nothing from control/ or endpoints/ (they import it).
"""
