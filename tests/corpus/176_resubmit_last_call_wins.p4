// Corpus 176: two resubmit calls in one pass: the last call's field list is preserved
// simple_switch.md after-ingress pseudocode: keep the fields of "the field list given as an
// argument to the last resubmit operation called"; fields of the other list read 0 in the
// resubmitted pass.
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

struct metadata_t {
    @field_list(1)
    bit<8> a;
    @field_list(2)
    bit<8> b;
}

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

control NoVerify(inout headers_t hdr, inout metadata_t meta) { apply { } }

control IngressImpl(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t std_meta) {
    apply {
        if (!hdr.data.isValid()) {
            mark_to_drop(std_meta);
            exit;
        }
        if (std_meta.instance_type == 0) {
            meta.a = 0xA1;
            meta.b = 0xB2;
            if (hdr.data.b1 == 1) {
                resubmit_preserving_field_list(1);
                resubmit_preserving_field_list(2);
            } else {
                resubmit_preserving_field_list(2);
                resubmit_preserving_field_list(1);
            }
        } else {
            hdr.data.h1 = meta.a ++ meta.b;
            hdr.data.b2 = (bit<8>) std_meta.instance_type;
            std_meta.egress_spec = 2;
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
