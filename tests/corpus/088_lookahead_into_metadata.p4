// Corpus 088: a lookahead<bit<24>>() assigned to metadata in the middle of a state, after
// an extract: it reads the bytes after that header without consuming them (P4_16 spec,
// "Lookahead"), so the header extracted next holds the same bytes. Ingress writes the
// looked-ahead value's low byte into a field of that header.
#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dst_addr;
    bit<48> src_addr;
    bit<16> ether_type;
}

header a_t {
    bit<8> a;
}

header b_t {
    bit<8>  b0;
    bit<16> b1;
    bit<8>  copy;
}

struct headers_t {
    ethernet_t ethernet;
    a_t        a;
    b_t        b;
}

struct metadata_t {
    bit<24> peek;
}

parser ParserImpl(packet_in pkt, out headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t std_meta) {
    state start {
        pkt.extract(hdr.ethernet);
        pkt.extract(hdr.a);
        meta.peek = pkt.lookahead<bit<24>>();
        pkt.extract(hdr.b);
        transition accept;
    }
}

control IngressImpl(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t std_meta) {
    apply {
        std_meta.egress_spec = 2;
        hdr.b.copy = meta.peek[7:0] ^ meta.peek[23:16];
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
        pkt.emit(hdr.a);
        pkt.emit(hdr.b);
    }
}

V1Switch(ParserImpl(), NoVerify(), IngressImpl(), EgressImpl(), NoCompute(),
         DeparserImpl()) main;
