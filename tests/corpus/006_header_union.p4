// Corpus 006: header_union: parse one member or the other, setValid() on one member
// invalidates its sibling, and emitting the union emits only the valid member.
#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dst_addr;
    bit<48> src_addr;
    bit<16> ether_type;
}

header v4_t {
    bit<8>  kind;
    bit<32> addr;
}

header v6_t {
    bit<8>  kind;
    bit<64> addr;
}

header_union ip_u {
    v4_t v4;
    v6_t v6;
}

struct headers_t {
    ethernet_t ethernet;
    ip_u       ip;
}

struct metadata_t { }

parser ParserImpl(packet_in pkt, out headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t std_meta) {
    state start {
        pkt.extract(hdr.ethernet);
        transition select(hdr.ethernet.ether_type) {
            0x0800: parse_v4;
            0x86DD: parse_v6;
            default: accept;
        }
    }
    state parse_v4 {
        pkt.extract(hdr.ip.v4);
        transition accept;
    }
    state parse_v6 {
        pkt.extract(hdr.ip.v6);
        transition accept;
    }
}

control IngressImpl(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t std_meta) {
    apply {
        std_meta.egress_spec = 2;
        if (hdr.ip.v4.isValid()) {
            bit<32> addr = hdr.ip.v4.addr;
            hdr.ip.v6.setValid();          // makes hdr.ip.v4 invalid
            hdr.ip.v6.kind = 6;
            hdr.ip.v6.addr = (bit<64>) addr;
            hdr.ethernet.ether_type = 0x86DD;
        } else if (hdr.ip.v6.isValid()) {
            hdr.ip.v6.addr = hdr.ip.v6.addr + 1;
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
        pkt.emit(hdr.ip);
    }
}

V1Switch(ParserImpl(), NoVerify(), IngressImpl(), EgressImpl(), NoCompute(),
         DeparserImpl()) main;
