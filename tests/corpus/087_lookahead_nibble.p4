// Corpus 087: lookahead of a width that is not whole bytes: lookahead<bit<4>>() reads the
// high nibble of the next byte (P4_16 spec, "Lookahead"; BMv2 JSON_format.md,
// "lookahead" key [offset, bitwidth]), like choosing IPv4 or IPv6 by the version
// nibble.
#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dst_addr;
    bit<48> src_addr;
    bit<16> ether_type;
}

header v4_t {
    bit<4>  version;
    bit<4>  ihl;
    bit<8>  ttl;
}

header v6_t {
    bit<4>  version;
    bit<4>  tc;
    bit<16> flow;
}

struct headers_t {
    ethernet_t ethernet;
    v4_t       v4;
    v6_t       v6;
}

struct metadata_t { }

parser ParserImpl(packet_in pkt, out headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t std_meta) {
    state start {
        pkt.extract(hdr.ethernet);
        transition select(pkt.lookahead<bit<4>>()) {
            4: parse_v4;
            6: parse_v6;
            default: accept;
        }
    }
    state parse_v4 {
        pkt.extract(hdr.v4);
        transition accept;
    }
    state parse_v6 {
        pkt.extract(hdr.v6);
        transition accept;
    }
}

control IngressImpl(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t std_meta) {
    apply {
        std_meta.egress_spec = 2;
        if (hdr.v4.isValid()) {
            hdr.v4.ttl = hdr.v4.ttl - 1;
            std_meta.egress_spec = 3;
        }
        if (hdr.v6.isValid()) {
            hdr.v6.flow = hdr.v6.flow + 1;
            std_meta.egress_spec = 4;
        }
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
        pkt.emit(hdr.v4);
        pkt.emit(hdr.v6);
    }
}

V1Switch(ParserImpl(), NoVerify(), IngressImpl(), EgressImpl(), NoCompute(),
         DeparserImpl()) main;
