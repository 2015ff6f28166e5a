// Corpus 211: a serializable enum converts implicitly to its underlying bit<W>: in
// an assignment to a field, a comparison with a field and an initializer.
#include <core.p4>
#include <v1model.p4>

enum bit<16> EtherType {
    IPV4 = 0x0800,
    ARP  = 0x0806,
    TEST = 0x88B5
}

header ethernet_t {
    bit<48> dst_addr;
    bit<48> src_addr;
    bit<16> ether_type;
}

header data_t {
    bit<16> seen;
    bit<16> next;
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
        transition accept;
    }
}

control NoVerify(inout headers_t hdr, inout metadata_t meta) { apply { } }

control IngressImpl(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t std_meta) {
    apply {
        std_meta.egress_spec = 2;
        bit<16> arp = EtherType.ARP;
        if (hdr.ethernet.ether_type == EtherType.TEST) {
            hdr.data.seen = EtherType.TEST;
            hdr.data.next = EtherType.IPV4;
        } else if (hdr.ethernet.ether_type == arp) {
            hdr.ethernet.ether_type = EtherType.IPV4;
            hdr.data.seen = arp;
        }
    }
}

control EgressImpl(inout headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t std_meta) { apply { } }

control NoCompute(inout headers_t hdr, inout metadata_t meta) { apply { } }

control DeparserImpl(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.ethernet);
        pkt.emit(hdr.data);
    }
}

V1Switch(ParserImpl(), NoVerify(), IngressImpl(), EgressImpl(), NoCompute(),
         DeparserImpl()) main;
