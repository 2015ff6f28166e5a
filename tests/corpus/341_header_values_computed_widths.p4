// Corpus 341: headers as values and computed widths: field widths from constant
// expressions, a header passed to a function and copied through a local header variable,
// and nested slices as l-values.
#include <core.p4>
#include <v1model.p4>
const bit<32> W = 4;
header h_t { bit<(W*2)> a; bit<(16 - W*2)> b; bit<16> c; }
header eth_t { bit<48> d; bit<48> s; bit<16> t; }
struct headers_t { eth_t eth; h_t h; h_t saved; }
struct meta_t { bit<8> n; }
bit<8> total(in h_t x) { return x.a + x.b; }
parser P(packet_in p, out headers_t h, inout meta_t m, inout standard_metadata_t s) {
    state start { p.extract(h.eth); p.extract(h.h); transition accept; }
}
control V(inout headers_t h, inout meta_t m) { apply { } }
control I(inout headers_t h, inout meta_t m, inout standard_metadata_t s) {
    apply {
        s.egress_spec = 2;
        h_t tmp = h.h;
        tmp.a = total(h.h);
        h.saved = tmp;
        h.h.c[15:8][3:0] = 4w0x5;
        h.h.c[7:0][7:4] = h.h.b[7:4];
    }
}
control E(inout headers_t h, inout meta_t m, inout standard_metadata_t s) { apply { } }
control C(inout headers_t h, inout meta_t m) { apply { } }
control D(packet_out p, in headers_t h) { apply { p.emit(h.eth); p.emit(h.h); p.emit(h.saved); } }
V1Switch(P(), V(), I(), E(), C(), D()) main;
