// A string literal given to hash()'s generic data parameter (p4c refuses a string bound to a type variable; lowering once crashed on it).
#include <core.p4>
#include <v1model.p4>

header h_t { bit<8> a; bit<8> b; bit<32> c; }
struct H { h_t h; }
struct M { bit<8> x; bit<32> y; }

parser P(packet_in pk, out H hdr, inout M m, inout standard_metadata_t sm) {

    state start {
        pk.extract(hdr.h);
        transition accept;
    }

}
control VC(inout H hdr, inout M m) { apply { } }
control I(inout H hdr, inout M m, inout standard_metadata_t sm) {

    apply {
        hash(m.y, HashAlgorithm.crc16, 16w0, "hi", 16w100);

    }
}
control E(inout H hdr, inout M m, inout standard_metadata_t sm) { apply { } }
control CC(inout H hdr, inout M m) { apply { } }
control D(packet_out pk, in H hdr) { apply { pk.emit(hdr.h); } }
V1Switch(P(), VC(), I(), E(), CC(), D()) main;
