// An entry giving an action an argument other than the one its actions list binds.
#include <core.p4>
#include <v1model.p4>
header h_t { bit<8> a; bit<16> b; bit<32> c; }
struct H { h_t h; }
struct M { bit<8> m; }

parser P(packet_in p, out H h, inout M m, inout standard_metadata_t s) {
    state start { p.extract(h.h); transition accept; }
}
control VC(inout H h, inout M m) { apply { } }
control I(inout H h, inout M m, inout standard_metadata_t s) {
    action fwd(in bit<9> port, bit<8> v) { s.egress_spec = port; h.h.a = v; }
    table t {
        key = { h.h.b: exact; }
        actions = { fwd(1); }
        const entries = { 16w7: fwd(2, 3); }
    }
    apply { t.apply(); }
}
control E(inout H h, inout M m, inout standard_metadata_t s) { apply { } }
control D(packet_out p, in H h) { apply { p.emit(h.h); } }
V1Switch(P(), VC(), I(), E(), VC(), D()) main;
