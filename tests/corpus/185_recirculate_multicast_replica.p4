// Corpus 185: one multicast replica recirculates, the others are transmitted
// Replicas are independent packets in egress (instance_type 5, their own egress_rid); the rid 20
// replica recirculates and re-enters ingress with instance_type 4 and mcast_grp 0, so it is then
// unicast to port 3 (simple_switch.md: after-ingress and after-egress pseudocode).
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
    bit<8> passes;
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
        if (std_meta.instance_type == 4) {
            hdr.data.b1 = (bit<8>) std_meta.instance_type;
            hdr.data.f1 = (bit<32>) std_meta.mcast_grp;
            std_meta.egress_spec = 3;
        } else {
            std_meta.mcast_grp = 1;
        }
    }
}

control EgressImpl(inout headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t std_meta) {
    apply {
        if (std_meta.instance_type == 5 && std_meta.egress_rid == 20) {
            meta.passes = 1;
            recirculate_preserving_field_list(1);
        } else {
            hdr.data.h1 = std_meta.egress_rid;
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
