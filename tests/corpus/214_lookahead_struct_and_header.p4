// Corpus 214: lookahead of a struct and of a header type in the parser: the next bits
// are read without being consumed and steer the parse.
#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dst_addr;
    bit<48> src_addr;
    bit<16> ether_type;
}

header tag_t {
    bit<8> kind;
    bit<8> len;
}

header data_t {
    bit<8> kind;
    bit<8> len;
    bit<8> peeked_kind;
    bit<8> peeked_len;
}

struct tag_peek_t {
    bit<8> kind;
    bit<8> len;
}

struct headers_t {
    ethernet_t ethernet;
    data_t     data;
}

struct metadata_t {
    bit<8> kind;
    bit<8> len;
}

parser ParserImpl(packet_in pkt, out headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t std_meta) {
    state start {
        pkt.extract(hdr.ethernet);
        tag_peek_t peek = pkt.lookahead<tag_peek_t>();
        meta.kind = peek.kind;
        transition select(pkt.lookahead<tag_t>().len) {
            0: accept;
            default: parse_data;
        }
    }
    state parse_data {
        meta.len = pkt.lookahead<tag_t>().len;
        pkt.extract(hdr.data);
        transition accept;
    }
}

control NoVerify(inout headers_t hdr, inout metadata_t meta) { apply { } }

control IngressImpl(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t std_meta) {
    apply {
        std_meta.egress_spec = 2;
        if (hdr.data.isValid()) {
            hdr.data.peeked_kind = meta.kind;
            hdr.data.peeked_len = meta.len;
        }
    }
}

control EgressImpl(inout headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t std_meta) { apply { } }

control NoCompute(inout headers_t hdr, inout metadata_t meta) { apply { } }

control DeparserImpl(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.ethernet);
        pkt.emit(hdr.data);
    }
}

V1Switch(ParserImpl(), NoVerify(), IngressImpl(), EgressImpl(), NoCompute(),
         DeparserImpl()) main;
