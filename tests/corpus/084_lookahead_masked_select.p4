// Corpus 084: select on lookahead<bit<16>>() with masked cases (value &&& mask), first
// match wins (P4_16 spec, "Lookahead" and "select"); lookahead does not consume, so the
// header extracted next starts at the same byte. BMv2 matches each case under its mask
// in order (bm_sim/parser.cpp, ParseSwitchCaseWithMask).
#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dst_addr;
    bit<48> src_addr;
    bit<16> ether_type;
}

header w_t {
    bit<16> w;
    bit<8>  path;
}

struct headers_t {
    ethernet_t ethernet;
    w_t        w;
}

struct metadata_t {
    bit<8> path;
}

parser ParserImpl(packet_in pkt, out headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t std_meta) {
    state start {
        pkt.extract(hdr.ethernet);
        transition select(pkt.lookahead<bit<16>>()) {
            16w0x1000 &&& 16w0xF000: path1;
            16w0x00FF &&& 16w0x00FF: path2;
            16w0x1234: path3;
            default: path4;
        }
    }
    state path1 {
        meta.path = 1;
        transition parse_w;
    }
    state path2 {
        meta.path = 2;
        transition parse_w;
    }
    state path3 {
        meta.path = 3;
        transition parse_w;
    }
    state path4 {
        meta.path = 4;
        transition parse_w;
    }
    state parse_w {
        pkt.extract(hdr.w);
        transition accept;
    }
}

control IngressImpl(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t std_meta) {
    apply {
        std_meta.egress_spec = 2;
        hdr.w.path = meta.path;
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
        pkt.emit(hdr.w);
    }
}

V1Switch(ParserImpl(), NoVerify(), IngressImpl(), EgressImpl(), NoCompute(),
         DeparserImpl()) main;
