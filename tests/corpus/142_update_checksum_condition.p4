// Corpus 142: update_checksum runs only when its condition is true
// update_checksum writes csum16 of the field list into the checksum field when the
// condition holds and leaves the field unchanged otherwise (v1model.p4
// update_checksum; it runs in the compute-checksum control after egress).
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
    apply {
        std_meta.egress_spec = 2;
    }
}

control EgressImpl(inout headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t std_meta) { apply { } }

control ComputeImpl(inout headers_t hdr, inout metadata_t meta) {
    apply {
        update_checksum(hdr.data.isValid() && hdr.data.b1 == 1,
                        { hdr.data.f1, hdr.data.f2 },
                        hdr.data.h1, HashAlgorithm.csum16);
    }
}

control DeparserImpl(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.ethernet);
        pkt.emit(hdr.data);
    }
}

V1Switch(ParserImpl(), VerifyImpl(), IngressImpl(), EgressImpl(), ComputeImpl(),
         DeparserImpl()) main;
