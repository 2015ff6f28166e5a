// Corpus 001: preprocessing with object-like and function-like #define, #undef and
// redefinition, and a macro used as a select case label.
#include <core.p4>
#include <v1model.p4>

#define OUT_PORT 2
#define ETHERTYPE_DATA 0x1234
#define ADD3(a, b, c) ((a) + (b) + (c))
#define TWICE(x) ((x) + (x))
#define STEP 5
#undef STEP
#define STEP 7

header ethernet_t {
    bit<48> dst_addr;
    bit<48> src_addr;
    bit<16> ether_type;
}

header data_t {
    bit<16> a;
    bit<16> b;
    bit<16> c;
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
            ETHERTYPE_DATA: parse_data;
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
        std_meta.egress_spec = OUT_PORT;
        if (hdr.data.isValid()) {
            hdr.data.a = ADD3(hdr.data.a, hdr.data.b, STEP);
            hdr.data.c = TWICE(hdr.data.c);
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
