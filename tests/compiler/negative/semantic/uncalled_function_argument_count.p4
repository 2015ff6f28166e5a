// Negative: a call with too many arguments in a function nothing calls
#include <v1model.p4>
struct H { } struct M { }
parser P(packet_in p, out H h, inout M m, inout standard_metadata_t s) { state start { transition accept; } }
control C(inout H h, inout M m) { apply { } }
control I(inout H h, inout M m, inout standard_metadata_t s) { apply { } }
control D(packet_out p, in H h) { apply { } }
bit<8> g(in bit<8> x) { return x; }
bit<8> f() { return g(1, 2); }
V1Switch(P(), C(), I(), I(), C(), D()) main;
