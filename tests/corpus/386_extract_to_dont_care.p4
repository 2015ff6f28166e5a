// Corpus 386: packet.extract<T>(_) in a parser (p4c's sample issue774-4-bmv2.p4): the
// header's bits are consumed and dropped; a packet shorter than the header gives
// PacketTooShort like any extract.
#include <core.p4>
#include <v1model.p4>
header h_t { bit<8> a; bit<8> b; }
header skip_t { bit<16> x; bit<8> y; }
struct hs_t { h_t h; }
struct m_t { }
parser P(packet_in pk, out hs_t hdr, inout m_t m, inout standard_metadata_t sm) {
    state start {
        pk.extract<skip_t>(_);
        pk.extract(hdr.h);
        transition accept;
    }
}
control VC(inout hs_t hdr, inout m_t m) { apply { } }
control I(inout hs_t hdr, inout m_t m, inout standard_metadata_t sm) {
    apply {
        if (sm.parser_error == error.PacketTooShort) {
            sm.egress_spec = 2;
        } else {
            sm.egress_spec = 1;
        }
    }
}
control E(inout hs_t hdr, inout m_t m, inout standard_metadata_t sm) { apply { } }
control CC(inout hs_t hdr, inout m_t m) { apply { } }
control D(packet_out pk, in hs_t hdr) { apply { pk.emit(hdr.h); } }
V1Switch(P(), VC(), I(), E(), CC(), D()) main;
