// A switch on a serializable enum with a bit<8> label (p4c: cannot be compared).
#include <core.p4>
#include <v1model.p4>
header h_t { bit<8> a; bit<16> b; bit<32> c; }
struct H { h_t h; }
struct M { bit<8> m; }
enum bit<8> kind_t { A = 1, B = 2 }
parser P(packet_in p, out H h, inout M m, inout standard_metadata_t s) {
    state start { p.extract(h.h); transition accept; }
}
control VC(inout H h, inout M m) { apply { } }
control I(inout H h, inout M m, inout standard_metadata_t s) {

    apply { kind_t k = (kind_t)h.h.a; switch (k) { 8w1: { h.h.b = 1; } default: { } } }
}
control E(inout H h, inout M m, inout standard_metadata_t s) { apply { } }
control D(packet_out p, in H h) { apply { p.emit(h.h); } }
V1Switch(P(), VC(), I(), E(), VC(), D()) main;
