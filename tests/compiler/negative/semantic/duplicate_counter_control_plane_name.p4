// Two counters one control-plane name: P4Runtime could not address them apart.
#include <core.p4>
#include <v1model.p4>
header h_t { bit<8> a; }
struct hs_t { h_t h; }
struct m_t { }
parser P(packet_in pk, out hs_t hdr, inout m_t m, inout standard_metadata_t sm) {
    state start { pk.extract(hdr.h); transition accept; }
}
control VC(inout hs_t hdr, inout m_t m) { apply { } }
control I(inout hs_t hdr, inout m_t m, inout standard_metadata_t sm) {
    @name(".hits") counter(8, CounterType.packets) c1;
    apply { c1.count(0); }
}
control E(inout hs_t hdr, inout m_t m, inout standard_metadata_t sm) {
    @name(".hits") counter(8, CounterType.packets) c2;
    apply { c2.count(1); }
}
control CC(inout hs_t hdr, inout m_t m) { apply { } }
control D(packet_out pk, in hs_t hdr) { apply { pk.emit(hdr.h); } }
V1Switch(P(), VC(), I(), E(), CC(), D()) main;
