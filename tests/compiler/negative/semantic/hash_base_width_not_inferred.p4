// hash() given an untyped 0 as its base: nothing gives type parameter T a width (p4c: could not infer a width).
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

    apply { hash(h.h.c, HashAlgorithm.crc16, 0, { h.h.a, h.h.b }, 32w65536); }
}
control E(inout H h, inout M m, inout standard_metadata_t s) { apply { } }
control D(packet_out p, in H h) { apply { p.emit(h.h); } }
V1Switch(P(), VC(), I(), E(), VC(), D()) main;
