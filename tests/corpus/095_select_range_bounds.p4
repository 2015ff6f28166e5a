// Corpus 095: select cases with ranges lo .. hi on an 8-bit field, bounds included, with
// adjacent and overlapping ranges (first match wins) and a one-value range (P4_16 spec,
// "select expressions", ranges). The values just outside each range go elsewhere.
#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dst_addr;
    bit<48> src_addr;
    bit<16> ether_type;
}

header d_t {
    bit<8> k;
    bit<8> path;
}

struct headers_t {
    ethernet_t ethernet;
    d_t        d;
}

struct metadata_t {
    bit<8> path;
}

parser ParserImpl(packet_in pkt, out headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t std_meta) {
    state start {
        pkt.extract(hdr.ethernet);
        pkt.extract(hdr.d);
        transition select(hdr.d.k) {
            8w0x10 .. 8w0x1F: p1;
            8w0x18 .. 8w0x2F: p2;
            8w0x40 .. 8w0x40: p3;
            8w0xF0 .. 8w0xFF: p4;
            default: p5;
        }
    }
    state p1 {
        meta.path = 1;
        transition accept;
    }
    state p2 {
        meta.path = 2;
        transition accept;
    }
    state p3 {
        meta.path = 3;
        transition accept;
    }
    state p4 {
        meta.path = 4;
        transition accept;
    }
    state p5 {
        meta.path = 5;
        transition accept;
    }
}

control IngressImpl(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t std_meta) {
    apply {
        std_meta.egress_spec = 2;
        hdr.d.path = meta.path;
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
        pkt.emit(hdr.d);
    }
}

V1Switch(ParserImpl(), NoVerify(), IngressImpl(), EgressImpl(), NoCompute(),
         DeparserImpl()) main;
