// Corpus 010: error declarations (user error codes next to core.p4's), verify() in
// the parser, and standard_metadata.parser_error checked in ingress; headers
// extracted before the failing verify stay valid, as on BMv2.
#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dst_addr;
    bit<48> src_addr;
    bit<16> ether_type;
}

error {
    BadVersion,
    BadLength
}

header data_t {
    bit<8> version;
    bit<8> len;
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
        pkt.extract(hdr.data);
        verify(hdr.data.version == 1, error.BadVersion);
        verify(hdr.data.len <= 8, error.BadLength);
        transition accept;
    }
}

control IngressImpl(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t std_meta) {
    apply {
        if (std_meta.parser_error == error.NoError) {
            std_meta.egress_spec = 2;
        } else if (std_meta.parser_error == error.BadVersion) {
            std_meta.egress_spec = 3;
            hdr.data.len = 0xE1;
        } else if (std_meta.parser_error == error.BadLength) {
            std_meta.egress_spec = 4;
            hdr.data.len = 0xE2;
        } else {
            mark_to_drop(std_meta);
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
    }
}

V1Switch(ParserImpl(), NoVerify(), IngressImpl(), EgressImpl(), NoCompute(),
         DeparserImpl()) main;
