// Corpus 124: header validity as a table key
// `hdr.data.isValid()` used as an exact key is a 1-bit value: 1 when the parser
// extracted the header, 0 otherwise (P4_16 spec, isValid(); BMv2 docs/JSON_format.md:
// a key on a header's "$valid$" field). Entries for both values, plus a miss.
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

struct metadata_t { }

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

control VerifyImpl(inout headers_t hdr, inout metadata_t meta) { apply { } }

control IngressImpl(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t std_meta) {
    action mark(bit<48> smac, bit<9> port) {
        hdr.ethernet.src_addr = smac;
        std_meta.egress_spec = port;
    }
    /* Data header present or not, per EtherType. */
    table by_validity {
        key = {
            hdr.data.isValid(): exact @name("has_data");
            hdr.ethernet.ether_type: exact;
        }
        actions = { mark; NoAction; }
        default_action = mark(0xEEEEEEEEEEEE, 5);
    }
    apply {
        by_validity.apply();
    }
}

control EgressImpl(inout headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t std_meta) { apply { } }

control ComputeImpl(inout headers_t hdr, inout metadata_t meta) { apply { } }

control DeparserImpl(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.ethernet);
        pkt.emit(hdr.data);
    }
}

V1Switch(ParserImpl(), VerifyImpl(), IngressImpl(), EgressImpl(), ComputeImpl(),
         DeparserImpl()) main;
