// Corpus 382: indexed bit slices e[lo +: w] (P4_16: bits lo .. lo + w - 1), read and
// written, lo a literal or a named constant.
#include <core.p4>
#include <v1model.p4>
header h_t { bit<16> f; bit<8> g; }
struct H { h_t h; }
struct M { }
const bit<32> LO = 4;
parser P(packet_in p, out H h, inout M m, inout standard_metadata_t s) { state start { p.extract(h.h); transition accept; } }
control V(inout H h, inout M m) { apply { } }
control I(inout H h, inout M m, inout standard_metadata_t s) {
    apply { h.h.g = h.h.f[LO +: 8]; h.h.f[0 +: 4] = 4w0xA; s.egress_spec = 1; }
}
control E(inout H h, inout M m, inout standard_metadata_t s) { apply { } }
control C(inout H h, inout M m) { apply { } }
control D(packet_out p, in H h) { apply { p.emit(h.h); } }
V1Switch(P(), V(), I(), E(), C(), D()) main;
