// An initializer block implementing a method the extern implements itself (not abstract).
#include <core.p4>
#include <v1model.p4>
header h_t { bit<16> f; }
struct H { h_t h; }
struct M { bit<16> local; }
extern Virtual {
    Virtual();
    void increment();
    abstract bit<16> f(in bit<16> ix);
    bit<16> total();
}
parser P(packet_in pk, out H h, inout M m, inout standard_metadata_t s) {
    state start { pk.extract(h.h); transition accept; }
}
control VC(inout H h, inout M m) { apply {} }
control I(inout H h, inout M m, inout standard_metadata_t s) {
    bit<16> local = 1;
    Virtual() cntr = {
        bit<16> f(in bit<16> ix) { return ix; } bit<16> total() { return 1; }
    };
    apply { cntr.increment(); }
}
control E(inout H h, inout M m, inout standard_metadata_t s) { apply {} }
control D(packet_out pk, in H h) { apply { pk.emit(h.h); } }
V1Switch(P(), VC(), I(), E(), VC(), D()) main;
