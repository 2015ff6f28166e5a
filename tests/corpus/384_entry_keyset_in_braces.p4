// Corpus 384: const entries whose keyset is a one-element list expression ({ k }),
// beside tuple keysets, whose key values and action arguments are '++' concatenations
// of literals (p4c's sample action-two-params.p4 writes { (8w0x20 ++ ...) }).
#include <core.p4>
#include <v1model.p4>
header h_t { bit<32> addr; bit<8> tag; bit<24> result; }
struct hs_t { h_t h; }
struct m_t { }
parser P(packet_in pk, out hs_t hdr, inout m_t m, inout standard_metadata_t sm) {
    state start { pk.extract(hdr.h); transition accept; }
}
control VC(inout hs_t hdr, inout m_t m) { apply { } }
control I(inout hs_t hdr, inout m_t m, inout standard_metadata_t sm) {
    action set_out(bit<24> v) { hdr.h.result = v; sm.egress_spec = 1; }
    action to_port(bit<9> p) { sm.egress_spec = p; }
    table by_addr {
        key = { hdr.h.addr: exact; }
        actions = { set_out; }
        const entries = {
            {(8w0x20 ++ 8w0x02 ++ 8w0x04 ++ 8w0x20)} : set_out(24w42);
            { 8w0x0a ++ 24w1 } : set_out(8w0x12 ++ 16w0x3456);
        }
    }
    table by_addr_and_tag {
        key = { hdr.h.addr: exact; hdr.h.tag: exact; }
        actions = { to_port; }
        const entries = {
            (32w7, 8w1) : to_port(2);
            (32w7, 8w2) : to_port(3);
        }
    }
    apply {
        if (!by_addr.apply().hit) {
            by_addr_and_tag.apply();
        }
    }
}
control E(inout hs_t hdr, inout m_t m, inout standard_metadata_t sm) { apply { } }
control CC(inout hs_t hdr, inout m_t m) { apply { } }
control D(packet_out pk, in hs_t hdr) { apply { pk.emit(hdr.h); } }
V1Switch(P(), VC(), I(), E(), CC(), D()) main;
