// Golden 05: switch on action_run (fall-through, default) and on values, exit,
// return, functions, nested actions, a nested control instance, if inside actions.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8>  op;
    bit<8>  x;
    bit<16> y;
}

struct headers_t { h_t h; }
struct metadata_t { bit<8> tmp; }

bit<8> max8(in bit<8> a, in bit<8> b) {
    if (a > b) { return a; }
    return b;
}

parser ParserImpl(packet_in pkt, out headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t std_meta) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control NoVerify(inout headers_t hdr, inout metadata_t meta) { apply { } }

control Marker(inout h_t h, in bit<8> value) {
    action mark() { h.x = value; }
    table marks {
        key = { h.op: exact; }
        actions = { mark; NoAction; }
        default_action = NoAction();
    }
    apply {
        if (h.op == 0xff) {
            return;
        }
        marks.apply();
    }
}

control IngressImpl(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t std_meta) {
    Marker() marker;

    action a1() { hdr.h.y = 1; }
    action a2() { hdr.h.y = 2; }
    action a3() { a1(); hdr.h.y = hdr.h.y + 10; }
    action clamp(bit<8> limit) {
        if (hdr.h.x > limit) {
            hdr.h.x = limit;
        } else {
            hdr.h.x = hdr.h.x + 1;
        }
    }
    table pick {
        key = { hdr.h.op: exact; }
        actions = { a1; a2; a3; clamp; }
        default_action = a1();
    }
    apply {
        std_meta.egress_spec = 1;
        switch (pick.apply().action_run) {
            a1:
            a2: { hdr.h.x = max8(hdr.h.x, 8w5); }
            default: { exit; }
        }
        switch (hdr.h.op) {
            1: { hdr.h.y = hdr.h.y |+| 16w0xfff0; }
            2:
            3: { hdr.h.y = hdr.h.y |-| 16w5; }
            default: { }
        }
        marker.apply(hdr.h, 8w0x42);
    }
}

control EgressImpl(inout headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t std_meta) { apply { } }

control NoCompute(inout headers_t hdr, inout metadata_t meta) { apply { } }

control DeparserImpl(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.h); }
}

V1Switch(ParserImpl(), NoVerify(), IngressImpl(), EgressImpl(), NoCompute(),
         DeparserImpl()) main;
