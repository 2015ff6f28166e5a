// Corpus 178: a recirculation loop bounded by a preserved metadata counter
// Each recirculate_preserving_field_list(1) feeds the deparsed packet (egress change to h1
// included) back to the parser with the @field_list(1) counter and instance_type 4 (RECIRC),
// until the counter reaches b2 (simple_switch.md: after-egress pseudocode).
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

struct metadata_t {
    @field_list(1)
    bit<8> count;
}

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
    apply {
        if (!hdr.data.isValid()) {
            mark_to_drop(std_meta);
            exit;
        }
        hdr.data.b1 = (bit<8>) std_meta.instance_type;
        std_meta.egress_spec = 2;
    }
}

control EgressImpl(inout headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t std_meta) {
    apply {
        if (meta.count < hdr.data.b2) {
            meta.count = meta.count + 1;
            hdr.data.h1 = hdr.data.h1 + 1;
            recirculate_preserving_field_list(1);
        }
    }
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
