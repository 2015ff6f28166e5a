// Corpus 342: the last element of a header-union stack read while parsing
// (h.us.last.member.field): as a select key, an `one` element whose x is 0xFF ends
// the stack; in assignments, the last `two` element's y and kind are kept in metadata
// and the running sum of the x fields is accumulated; ingress writes them out.
#include <core.p4>
#include <v1model.p4>
header h1_t { bit<8> kind; bit<8> x; }
header h2_t { bit<8> kind; bit<16> y; }
header_union u_t { h1_t one; h2_t two; }
header eth_t { bit<48> d; bit<48> s; bit<16> t; }
struct headers_t { eth_t eth; u_t[4] us; }
struct meta_t { bit<16> last_y; bit<8> last_kind; bit<8> sum_x; }
parser P(packet_in p, out headers_t h, inout meta_t m, inout standard_metadata_t s) {
    state start { p.extract(h.eth); transition next; }
    state next {
        transition select(p.lookahead<bit<8>>()) {
            1: one; 2: two; default: accept;
        }
    }
    state one {
        p.extract(h.us.next.one);
        m.sum_x = m.sum_x + h.us.last.one.x;
        transition select(h.us.last.one.x) {
            0xFF: accept;
            default: next;
        }
    }
    state two {
        p.extract(h.us.next.two);
        m.last_y = h.us.last.two.y;
        m.last_kind = h.us.last.two.kind;
        transition next;
    }
}
control V(inout headers_t h, inout meta_t m) { apply { } }
control I(inout headers_t h, inout meta_t m, inout standard_metadata_t s) {
    apply {
        s.egress_spec = 2;
        h.eth.d = (bit<48>)m.last_y;
        h.eth.s = (bit<48>)m.sum_x;
        h.eth.t = (bit<16>)m.last_kind;
    }
}
control E(inout headers_t h, inout meta_t m, inout standard_metadata_t s) { apply { } }
control C(inout headers_t h, inout meta_t m) { apply { } }
control D(packet_out p, in headers_t h) { apply { p.emit(h.eth); p.emit(h.us); } }
V1Switch(P(), V(), I(), E(), C(), D()) main;
