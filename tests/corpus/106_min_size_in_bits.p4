// Corpus 106: minSizeInBits() and minSizeInBytes() of headers, compile-time constants
// (P4_16 spec, "minSizeInBits"): for a header with a varbit field only the fixed fields
// count. Ingress writes them into a result header; the values do not depend on the
// packet or on the varbit size parsed.
#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dst_addr;
    bit<48> src_addr;
    bit<16> ether_type;
}

header fixed_t {
    bit<4>  a;
    bit<12> b;
    bit<8>  c;
}

header opt_t {
    bit<8>     len;
    bit<8>     kind;
    varbit<64> data;
}

header res_t {
    bit<16> fixed_bits;
    bit<8>  fixed_bytes;
    bit<16> opt_bits;
    bit<8>  opt_bytes;
}

struct headers_t {
    ethernet_t ethernet;
    fixed_t    fixed;
    opt_t      opt;
    res_t      res;
}

struct metadata_t { }

parser ParserImpl(packet_in pkt, out headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t std_meta) {
    state start {
        pkt.extract(hdr.ethernet);
        pkt.extract(hdr.fixed);
        pkt.extract(hdr.opt, (bit<32>) pkt.lookahead<bit<8>>() * 8);
        transition accept;
    }
}

control IngressImpl(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t std_meta) {
    apply {
        std_meta.egress_spec = 2;
        hdr.res.setValid();
        hdr.res.fixed_bits = (bit<16>) hdr.fixed.minSizeInBits();
        hdr.res.fixed_bytes = (bit<8>) hdr.fixed.minSizeInBytes();
        hdr.res.opt_bits = (bit<16>) hdr.opt.minSizeInBits();
        hdr.res.opt_bytes = (bit<8>) hdr.opt.minSizeInBytes();
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
        pkt.emit(hdr.fixed);
        pkt.emit(hdr.opt);
        pkt.emit(hdr.res);
    }
}

V1Switch(ParserImpl(), NoVerify(), IngressImpl(), EgressImpl(), NoCompute(),
         DeparserImpl()) main;
