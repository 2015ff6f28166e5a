// Corpus 340: a stack of header unions (ONOS/PI test style): each element holds one of two
// header types chosen by lookahead while parsing (extract(us.next.member)); members updated
// by index; push_front/pop_front move whole elements; setValid on one member invalidates
// the other; overflowing the stack is StackOutOfBounds with the elements kept; the whole
// stack is emitted (valid members only).
#include <core.p4>
#include <v1model.p4>
header h1_t { bit<8> kind; bit<8> x; }
header h2_t { bit<8> kind; bit<16> y; }
header_union u_t { h1_t one; h2_t two; }
header eth_t { bit<48> d; bit<48> s; bit<16> t; }
struct headers_t { eth_t eth; u_t[3] us; }
struct meta_t { bit<8> n; }
parser P(packet_in p, out headers_t h, inout meta_t m, inout standard_metadata_t s) {
    state start { p.extract(h.eth); transition next; }
    state next {
        transition select(p.lookahead<bit<8>>()) {
            1: one; 2: two; default: accept;
        }
    }
    state one { p.extract(h.us.next.one); transition next; }
    state two { p.extract(h.us.next.two); transition next; }
}
control V(inout headers_t h, inout meta_t m) { apply { } }
control I(inout headers_t h, inout meta_t m, inout standard_metadata_t s) {
    apply {
        s.egress_spec = 2;
        if (s.parser_error == error.StackOutOfBounds) { h.eth.s = 3; }
        if (h.eth.t == 0x88B6) {
            h.us.push_front(1);
            h.us[0].one.setValid();
            h.us[0].one.kind = 1;
            h.us[0].one.x = 0xEE;
        } else if (h.eth.t == 0x88B7) {
            h.us.pop_front(1);
        } else if (h.eth.t == 0x88B8) {
            h.us[0].two.setValid();
            h.us[0].two.kind = 2;
            h.us[0].two.y = 0x4242;
        } else {
            if (h.us[0].one.isValid()) { h.us[0].one.x = h.us[0].one.x + 1; }
            if (h.us[1].two.isValid()) { h.us[1].two.y = 16w0xBEEF; }
        }
        if (h.us[2].isValid()) { h.eth.d = 2; }
    }
}
control E(inout headers_t h, inout meta_t m, inout standard_metadata_t s) { apply { } }
control C(inout headers_t h, inout meta_t m) { apply { } }
control D(packet_out p, in headers_t h) { apply { p.emit(h.eth); p.emit(h.us); } }
V1Switch(P(), V(), I(), E(), C(), D()) main;
