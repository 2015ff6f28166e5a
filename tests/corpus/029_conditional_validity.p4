// Corpus 029: the conditional operator ?: and header validity: isValid(),
// setValid() to insert a header, setInvalid() to remove one.
#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dst_addr;
    bit<48> src_addr;
    bit<16> ether_type;
}

header data_t {
    bit<8> a;
    bit<8> b;
}

header extra_t {
    bit<16> x;
}

header opt_t {
    bit<16> y;
}

struct headers_t {
    ethernet_t ethernet;
    data_t     data;
    extra_t    extra;
    opt_t      opt;
}

struct metadata_t { }

parser ParserImpl(packet_in pkt, out headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t std_meta) {
    state start {
        pkt.extract(hdr.ethernet);
        pkt.extract(hdr.data);
        transition select(hdr.ethernet.ether_type) {
            0x1235: parse_opt;
            default: accept;
        }
    }
    state parse_opt {
        pkt.extract(hdr.opt);
        transition accept;
    }
}

control IngressImpl(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t std_meta) {
    apply {
        bool big = hdr.data.a > 10;
        hdr.data.b = big ? 8w1 : 8w2;
        std_meta.egress_spec = big ? 9w2 : 9w3;
        if (!hdr.extra.isValid()) {
            hdr.extra.setValid();
            hdr.extra.x = 0xBEEF;
        }
        if (hdr.opt.isValid()) {
            hdr.opt.setInvalid();
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
        pkt.emit(hdr.data);
        pkt.emit(hdr.extra);
        pkt.emit(hdr.opt);
    }
}

V1Switch(ParserImpl(), NoVerify(), IngressImpl(), EgressImpl(), NoCompute(),
         DeparserImpl()) main;
