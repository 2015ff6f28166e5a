// Corpus 385: an action called only after 'exit' (never runs; p4c's P4Info still lists
// it, as in p4c's sample global_action_after_exit.p4) and one called after 'return'.
#include <core.p4>
#include <v1model.p4>
header h_t { bit<8> kind; bit<8> mark; }
struct hs_t { h_t h; }
struct m_t { }
action stamp(inout h_t h) { h.mark = 0xEE; }
parser P(packet_in pk, out hs_t hdr, inout m_t m, inout standard_metadata_t sm) {
    state start { pk.extract(hdr.h); transition accept; }
}
control VC(inout hs_t hdr, inout m_t m) { apply { } }
control I(inout hs_t hdr, inout m_t m, inout standard_metadata_t sm) {
    action late_mark() { hdr.h.mark = 0xDD; }
    apply {
        sm.egress_spec = 1;
        if (hdr.h.kind == 1) {
            exit;
        }
        if (hdr.h.kind == 2) {
            hdr.h.mark = 2;
            return;
        }
        hdr.h.mark = 3;
        exit;
        stamp(hdr.h);
        late_mark();
    }
}
control E(inout hs_t hdr, inout m_t m, inout standard_metadata_t sm) { apply { } }
control CC(inout hs_t hdr, inout m_t m) { apply { } }
control D(packet_out pk, in hs_t hdr) { apply { pk.emit(hdr.h); } }
V1Switch(P(), VC(), I(), E(), CC(), D()) main;
