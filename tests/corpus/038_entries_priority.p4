// Corpus 038: initial entries with explicit priorities
// Ternary initial `entries` with `priority=` values listed out of priority order. The
// P4_16 spec says the largest priority should win (largest_priority_wins defaults to
// true), and p4c's front end checks the values (warning entries_out_of_priority_order
// here), but p4c's BMv2 back end does not carry them into the JSON: each entry gets
// its 1-based place in the list (or its @priority(N) annotation) as BMv2 priority, where
// the smaller number wins. So on BMv2 the first listed matching entry wins, whatever
// `priority=` says (recorded on real simple_switch_grpc: tests/real_toolchain/project/
// 038_entries_priority). (p4c rejects priorities in `const entries`, so the list is not
// const.)
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

control NoVerify(inout headers_t hdr, inout metadata_t meta) { apply { } }

control IngressImpl(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t std_meta) {
    action mark(bit<8> tag, bit<9> port) {
        hdr.data.b1 = tag;
        std_meta.egress_spec = port;
    }
    /* On BMv2 the listed order, not `priority=`, decides. */
    table t {
        key = { hdr.data.h1: ternary @name("h1"); }
        actions = { mark; }
        default_action = mark(0, 1);
        entries = {
            priority=10: 0x1200 &&& 0xff00: mark(1, 2);
            priority=30: 0x1234 &&& 0xffff: mark(2, 3);
            priority=20: 0x0000 &&& 0x0000: mark(3, 4);
        }
    }
    apply {
        if (hdr.data.isValid()) {
            t.apply();
        }
    }
}

control EgressImpl(inout headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t std_meta) {
    apply { }
}

control NoCompute(inout headers_t hdr, inout metadata_t meta) { apply { } }

control DeparserImpl(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.ethernet);
        pkt.emit(hdr.data);
    }
}

V1Switch(ParserImpl(), NoVerify(), IngressImpl(), EgressImpl(), NoCompute(),
         DeparserImpl()) main;
