// Corpus 011: a match_kind declaration next to the standard ones, and a table mixing
// ternary and exact keys whose overlapping entries are ordered by priority.
#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dst_addr;
    bit<48> src_addr;
    bit<16> ether_type;
}

match_kind {
    unused_custom_kind
}

header data_t {
    bit<8> kind;
    bit<8> flags;
    bit<8> tag;
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
        pkt.extract(hdr.data);
        transition accept;
    }
}

control IngressImpl(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t std_meta) {
    action set_port(bit<9> port, bit<8> tag) {
        std_meta.egress_spec = port;
        hdr.data.tag = tag;
    }
    /* Classifies on a kind pattern and exact flags. */
    table classify {
        key = {
            hdr.data.kind:  ternary;
            hdr.data.flags: exact;
        }
        actions = { set_port; NoAction; }
        default_action = NoAction();
    }
    apply {
        std_meta.egress_spec = 4;
        classify.apply();
    }
}

control NoVerify(inout headers_t hdr, inout metadata_t meta) { apply { } }

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
