// Corpus 186: two multicast groups sharing a port, with per-node replication ids
// Each copy is made per (node, port) of the group in mcast_grp and carries its node's RID as
// egress_rid and instance_type 5 (simple_switch.md: mcast_grp, egress_rid, after-ingress
// pseudocode); port 1 gets rid 1 from group 1 and rid 3 from group 2.
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

control NoVerify(inout headers_t hdr, inout metadata_t meta) { apply { } }

control IngressImpl(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t std_meta) {
    apply {
        if (hdr.data.isValid()) {
            std_meta.mcast_grp = (bit<16>) hdr.data.b1;
        }
    }
}

control EgressImpl(inout headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t std_meta) {
    apply {
        if (hdr.data.isValid()) {
            hdr.data.f1 = (bit<32>) std_meta.egress_port;
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
