// Tables for the P4Runtime insert fast path (test_p4rt_insert_plan.py): an lpm-only
// table with room for four entries, and a ternary table keyed on exact, lpm and
// ternary fields with a @defaultonly action.  Both are applied to every data packet.
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
    action mark(bit<8> tag, bit<9> port) {
        hdr.data.b2 = tag;
        std_meta.egress_spec = port;
    }
    action drop() {
        mark_to_drop(std_meta);
    }
    table routes {
        key = { hdr.data.f2: lpm; }
        actions = { mark; NoAction; }
        size = 4;
        default_action = NoAction();
    }
    table mixed {
        key = {
            hdr.data.b1: exact;
            hdr.data.f1: lpm;
            hdr.data.h1: ternary;
        }
        actions = { mark; @defaultonly drop; NoAction; }
        default_action = NoAction();
    }
    apply {
        if (hdr.data.isValid()) {
            routes.apply();
            mixed.apply();
        }
    }
}

control EgressImpl(inout headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t std_meta) { apply { } }

control ComputeChecksumImpl(inout headers_t hdr, inout metadata_t meta) { apply { } }

control DeparserImpl(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.ethernet);
        pkt.emit(hdr.data);
    }
}

V1Switch(ParserImpl(), VerifyImpl(), IngressImpl(), EgressImpl(), ComputeChecksumImpl(),
         DeparserImpl()) main;
