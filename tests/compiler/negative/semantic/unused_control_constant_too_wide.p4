// An integer constant too wide for its bit<4> variable, in a control nothing instantiates (p4c checks every body).
#include <core.p4>
#include <v1model.p4>
header h_t { bit<8> a; bit<16> b; bit<32> c; }
struct H { h_t h; h_t[2] s; }
struct M { bit<8> m; }
parser P(packet_in p, out H h, inout M m, inout standard_metadata_t s) { state start { p.extract(h.h); transition accept; } }
control VC(inout H h, inout M m) { apply { } }
control X(inout H h, inout M m, inout standard_metadata_t s) {
apply { bit<4> x = 300; h.h.a = (bit<8>)x; }
}
control I(inout H h, inout M m, inout standard_metadata_t s) {  apply {  } }
control E(inout H h, inout M m, inout standard_metadata_t s) { apply { } }
control D(packet_out p, in H h) { apply { p.emit(h.h); } }
V1Switch(P(), VC(), I(), E(), VC(), D()) main;
