// Corpus 153: `exit` inside a table action and `return` inside an action
// exit in an action ends the whole ingress control at once (the statements after the
// table do not run) but not the pipeline: egress still runs and the packet leaves;
// return ends only the action (P4_16 spec, "exit statement", "return statement").
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
    action stop(bit<9> port) {
        std_meta.egress_spec = port;
        exit;
    }
    action early(bit<8> v) {
        hdr.data.b2 = v;
        if (v == 0) {
            return;
        }
        hdr.data.h1 = 0xAAAA;
    }
    /* b1 picks stop or early. */
    table t {
        key = { hdr.data.b1: exact; }
        actions = { stop; early; NoAction; }
        default_action = NoAction();
    }
    apply {
        if (!hdr.data.isValid()) {
            mark_to_drop(std_meta);
            exit;
        }
        std_meta.egress_spec = 2;
        t.apply();
        hdr.data.f2 = 0x22222222;
    }
}

control EgressImpl(inout headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t std_meta) {
    apply {
        if (hdr.data.isValid()) {
            hdr.data.f1 = 0xEEEEEEEE;
        }
    }
}

control ComputeImpl(inout headers_t hdr, inout metadata_t meta) { apply { } }

control DeparserImpl(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.ethernet);
        pkt.emit(hdr.data);
    }
}

V1Switch(ParserImpl(), VerifyImpl(), IngressImpl(), EgressImpl(), ComputeImpl(),
         DeparserImpl()) main;
