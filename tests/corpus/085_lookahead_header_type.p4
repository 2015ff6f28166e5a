// Corpus 085: lookahead<T>() of a header type returns the next sizeof(T) bits as a T
// without consuming them (P4_16 spec, "Lookahead"); its fields choose the next state, and
// the same bytes are then extracted into a different header type. The field values read
// by lookahead are copied into the extracted header by ingress.
#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dst_addr;
    bit<48> src_addr;
    bit<16> ether_type;
}

header peek_t {
    bit<4>  version;
    bit<4>  flags;
    bit<8>  len;
}

header v1_t {
    bit<8>  vf;
    bit<8>  len;
    bit<8>  seen_len;
}

struct headers_t {
    ethernet_t ethernet;
    v1_t       v1;
}

struct metadata_t {
    bit<8> len;
    bit<4> flags;
}

parser ParserImpl(packet_in pkt, out headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t std_meta) {
    state start {
        pkt.extract(hdr.ethernet);
        peek_t p = pkt.lookahead<peek_t>();
        meta.len = p.len;
        meta.flags = p.flags;
        transition select(p.version) {
            1: parse_v1;
            default: accept;
        }
    }
    state parse_v1 {
        pkt.extract(hdr.v1);
        transition accept;
    }
}

control IngressImpl(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t std_meta) {
    apply {
        std_meta.egress_spec = 2;
        if (hdr.v1.isValid()) {
            hdr.v1.seen_len = meta.len + (bit<8>) meta.flags;
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
        pkt.emit(hdr.v1);
    }
}

V1Switch(ParserImpl(), NoVerify(), IngressImpl(), EgressImpl(), NoCompute(),
         DeparserImpl()) main;
