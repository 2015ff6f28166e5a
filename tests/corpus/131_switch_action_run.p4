// Corpus 131: `switch (t.apply().action_run)` with a case per action and a default
// The case taken is the action that ran: an entry's action on a hit, the default
// action on a miss (so a miss with default a3 takes the a3 case, not `default:`);
// an action without a case takes `default:` (P4_16 spec, "switch statement").
#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dst_addr;
    bit<48> src_addr;
    bit<16> ether_type;
}

header data_t {
    bit<32> f1;
    bit<32> f2;
    bit<16> h1;
    bit<8>  b1;
    bit<8>  b2;
}

struct headers_t {
    ethernet_t ethernet;
    data_t     data;
}

struct metadata_t { }

parser ParserImpl(packet_in pkt, out headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t std_meta) {
    state start {
        pkt.extract(hdr.ethernet);
        transition select(hdr.ethernet.ether_type) {
            0x88b5: parse_data;
            default: accept;
        }
    }
    state parse_data {
        pkt.extract(hdr.data);
        transition accept;
    }
}

control VerifyImpl(inout headers_t hdr, inout metadata_t meta) { apply { } }

control IngressImpl(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t std_meta) {
    action a1() { hdr.data.b2 = 1; }
    action a2() { hdr.data.b2 = 2; }
    action a3() { hdr.data.b2 = 3; }
    action a4() { hdr.data.b2 = 4; }
    /* Four actions, default a3. */
    table t {
        key = { hdr.data.b1: exact; }
        actions = { a1; a2; a3; a4; }
        default_action = a3();
    }
    apply {
        std_meta.egress_spec = 2;
        if (!hdr.data.isValid()) {
            exit;
        }
        switch (t.apply().action_run) {
            a1: { hdr.data.h1 = 0x1111; }
            a2: { hdr.data.h1 = 0x2222; std_meta.egress_spec = 3; }
            a3: { hdr.data.h1 = 0x3333; std_meta.egress_spec = 4; }
            default: { hdr.data.h1 = 0xDDDD; std_meta.egress_spec = 5; }
        }
    }
}

control EgressImpl(inout headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t std_meta) { apply { } }

control ComputeImpl(inout headers_t hdr, inout metadata_t meta) { apply { } }

control DeparserImpl(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.ethernet);
        pkt.emit(hdr.data);
    }
}

V1Switch(ParserImpl(), VerifyImpl(), IngressImpl(), EgressImpl(), ComputeImpl(),
         DeparserImpl()) main;
