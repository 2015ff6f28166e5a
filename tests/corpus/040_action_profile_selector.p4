// Corpus 040: action profile and action selector
// A table implemented by an `action_profile` and one by an `action_selector` (with
// `selector` key fields). With no members configured both miss and run NoAction, so
// the packet leaves unchanged on the port set before them.
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
    action set_b2(bit<8> v) { hdr.data.b2 = v; }
    action to_port(bit<9> port) { std_meta.egress_spec = port; }
    action_profile(32w128) member_profile;
    action_selector(HashAlgorithm.crc16, 32w128, 32w14) member_selector;
    /* Indirect: entries point to profile members. */
    table indirect {
        key = { hdr.data.b1: exact; }
        actions = { set_b2; NoAction; }
        implementation = member_profile;
    }
    /* Grouped: a member is picked by hashing the selector fields. */
    table grouped {
        key = {
            hdr.data.b2: exact;
            hdr.data.f1: selector;
            hdr.data.f2: selector;
        }
        actions = { to_port; NoAction; }
        implementation = member_selector;
    }
    apply {
        std_meta.egress_spec = 2;
        if (hdr.data.isValid()) {
            indirect.apply();
            grouped.apply();
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
