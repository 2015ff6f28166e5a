// A generic extern method given T = int and a header (p4c: "'int' type can only be unified with 'int', 'bit<>', or 'signed<>' types").
#include <core.p4>
#include <v1model.p4>
header h_t { bit<8> f; bit<32> g; }
struct H { h_t h; }
struct M { }
extern X3 { X3(); void m<T>(in T x); }

parser P(packet_in p, out H h, inout M m, inout standard_metadata_t s) { state start { p.extract(h.h); transition accept; } }
control VC(inout H h, inout M m) { apply { } }
control I(inout H h, inout M m, inout standard_metadata_t s) {
    X3() e;
    apply { e.m<int>(h.h); }

}
control E(inout H h, inout M m, inout standard_metadata_t s) { apply { } }
control CC(inout H h, inout M m) { apply { } }
control D(packet_out p, in H h) { apply { p.emit(h.h); } }
V1Switch(P(), VC(), I(), E(), CC(), D()) main;
