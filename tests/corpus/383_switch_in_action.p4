// Corpus 383: a switch on a value inside an action. p4c's own test issue3299 records
// "switch statements not supported in actions on this target" from p4test; whether
// p4c-bm2-ss refuses it too is what this program's recording will tell (p4sim runs it).
#include <core.p4>
#include <v1model.p4>
header h_t { bit<8> a; bit<16> c; }
struct H { h_t h; }
struct M { }
parser P(packet_in p, out H h, inout M m, inout standard_metadata_t s) { state start { p.extract(h.h); transition accept; } }
control V(inout H h, inout M m) { apply { } }
control I(inout H h, inout M m, inout standard_metadata_t s) {
    action pick() {
        switch (h.h.a) {
            1: { h.h.c = 0x0101; }
            2:
            3: { h.h.c = 0x0203; }
            default: { h.h.c = 0xffff; }
        }
        s.egress_spec = 1;
    }
    apply { pick(); }
}
control E(inout H h, inout M m, inout standard_metadata_t s) { apply { } }
control C(inout H h, inout M m) { apply { } }
control D(packet_out p, in H h) { apply { p.emit(h.h); } }
V1Switch(P(), V(), I(), E(), C(), D()) main;
