// Corpus 381: constants of struct type (const pair_t P0 = { a = 3, b = 4 }; and the
// positional form), as P4 allows and p4c accepts: assigned whole, read field by
// field, compared with ==; P0 is read-only.
#include <core.p4>
#include <v1model.p4>
header h_t { bit<8> f; bit<8> g; }
struct H { h_t h; }
struct pair_t { bit<8> a; bit<8> b; }
struct M { pair_t p; }
const pair_t P0 = { a = 8w3, b = 8w4 };
const pair_t P1 = { 7, 9 };
parser P(packet_in p, out H h, inout M m, inout standard_metadata_t s) { state start { p.extract(h.h); transition accept; } }
control V(inout H h, inout M m) { apply { } }
control I(inout H h, inout M m, inout standard_metadata_t s) {
    apply {
        m.p = P1;
        if (h.h.f == 1) { m.p = P0; }
        h.h.f = m.p.a + P0.b;
        h.h.g = m.p.b;
        if (m.p == P0) { s.egress_spec = 2; } else { s.egress_spec = 1; }
    }
}
control E(inout H h, inout M m, inout standard_metadata_t s) { apply { } }
control C(inout H h, inout M m) { apply { } }
control D(packet_out p, in H h) { apply { p.emit(h.h); } }
V1Switch(P(), V(), I(), E(), C(), D()) main;
