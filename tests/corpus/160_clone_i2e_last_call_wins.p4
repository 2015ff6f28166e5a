// Corpus 160: two clone calls in one ingress pass: only the last session and field list count
// v1model.p4 (clone_preserving_field_list): with several clone calls in one ingress execution
// only the last session and index are used; simple_switch.md: "the last clone primitive action
// called". One copy only, to the last call's session, keeping the last call's field list.
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
        std_meta.egress_spec = 2;
        if (hdr.data.isValid()) {
            meta.a = 0xA1;
            meta.b = 0xB2;
            if (hdr.data.b1 == 1) {
                clone_preserving_field_list(CloneType.I2E, 32w7, 1);
                clone_preserving_field_list(CloneType.I2E, 32w8, 2);
            } else if (hdr.data.b1 == 2) {
                clone(CloneType.I2E, 32w8);
                clone_preserving_field_list(CloneType.I2E, 32w7, 1);
            }
        }
    }
}

control EgressImpl(inout headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t std_meta) {
    apply {
        if (hdr.data.isValid()) {
            hdr.data.h1 = meta.a ++ meta.b;
            hdr.data.b2 = (bit<8>) std_meta.instance_type;
        }
    }
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
