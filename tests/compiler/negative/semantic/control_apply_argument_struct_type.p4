// A struct of another type (same fields) passed to a control's apply (p4c refuses: types are named).
#include <core.p4>
#include <v1model.p4>
header h_t { bit<8> f; bit<32> g; }
struct H { h_t h; }
struct M { }
struct s1_t { bit<8> f1; bit<8> f2; }
struct s2_t { bit<8> f1; bit<8> f2; }
control myCtrl(inout s2_t s2) { apply { s2.f1 = 1; } }

parser P(packet_in p, out H h, inout M m, inout standard_metadata_t s) { state start { p.extract(h.h); transition accept; } }
control VC(inout H h, inout M m) { apply { } }
control I(inout H h, inout M m, inout standard_metadata_t s) {
    myCtrl() c1; s1_t s1;
    apply { c1.apply(s1); h.h.f = s1.f1; }

}
control E(inout H h, inout M m, inout standard_metadata_t s) { apply { } }
control CC(inout H h, inout M m) { apply { } }
control D(packet_out p, in H h) { apply { p.emit(h.h); } }
V1Switch(P(), VC(), I(), E(), CC(), D()) main;
