// Corpus 316: an MPLS label-switching router in the style of p4-guide's header-stack
// demos: a stack of up to four labels parsed by bottom-of-stack, a label table that swaps,
// pops (penultimate hop: back to IPv4 when the last label goes) or pushes a label, with the
// MPLS TTL copied and decremented, and an ingress LER table that imposes the first label.
#include <core.p4>
#include <v1model.p4>

#define MPLS_DEPTH 4

const bit<16> ETHERTYPE_IPV4 = 0x0800;
const bit<16> ETHERTYPE_MPLS = 0x8847;

header ethernet_t {
    bit<48> dst_addr;
    bit<48> src_addr;
    bit<16> ether_type;
}

header mpls_t {
    bit<20> label;
    bit<3>  tc;
    bit<1>  bos;
    bit<8>  ttl;
}

header ipv4_t {
    bit<4>  version;
    bit<4>  ihl;
    bit<8>  diffserv;
    bit<16> total_len;
    bit<16> identification;
    bit<3>  flags;
    bit<13> frag_offset;
    bit<8>  ttl;
    bit<8>  protocol;
    bit<16> hdr_checksum;
    bit<32> src_addr;
    bit<32> dst_addr;
}

struct headers_t {
    ethernet_t         ethernet;
    mpls_t[MPLS_DEPTH] mpls;
    ipv4_t             ipv4;
}

struct metadata_t {
    bit<8> depth;
}

parser ParserImpl(packet_in packet, out headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t stdmeta) {
    state start {
        meta.depth = 0;
        packet.extract(hdr.ethernet);
        transition select(hdr.ethernet.ether_type) {
            ETHERTYPE_MPLS: parse_mpls;
            ETHERTYPE_IPV4: parse_ipv4;
            default: accept;
        }
    }

    state parse_mpls {
        packet.extract(hdr.mpls.next);
        meta.depth = meta.depth + 1;
        transition select(hdr.mpls.last.bos) {
            0: parse_mpls;
            1: parse_ipv4;
        }
    }

    state parse_ipv4 {
        packet.extract(hdr.ipv4);
        transition accept;
    }
}

control VerifyChecksumImpl(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control IngressImpl(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t stdmeta) {
    action drop() {
        mark_to_drop(stdmeta);
    }

    action set_out(bit<9> port, bit<48> nh_mac) {
        stdmeta.egress_spec = port;
        hdr.ethernet.src_addr = hdr.ethernet.dst_addr;
        hdr.ethernet.dst_addr = nh_mac;
    }

    action swap(bit<20> new_label, bit<9> port, bit<48> nh_mac) {
        hdr.mpls[0].label = new_label;
        hdr.mpls[0].ttl = hdr.mpls[0].ttl - 1;
        set_out(port, nh_mac);
    }

    action pop(bit<9> port, bit<48> nh_mac) {
        bit<8> ttl = hdr.mpls[0].ttl - 1;
        hdr.mpls.pop_front(1);
        if (hdr.mpls[0].isValid()) {
            hdr.mpls[0].ttl = ttl;
        } else {
            hdr.ethernet.ether_type = ETHERTYPE_IPV4;
            hdr.ipv4.ttl = ttl;
        }
        set_out(port, nh_mac);
    }

    action push(bit<20> label, bit<9> port, bit<48> nh_mac) {
        bit<8> ttl = hdr.mpls[0].ttl - 1;
        hdr.mpls[0].ttl = ttl;
        hdr.mpls.push_front(1);
        hdr.mpls[0].setValid();
        hdr.mpls[0].label = label;
        hdr.mpls[0].tc = hdr.mpls[1].tc;
        hdr.mpls[0].bos = 0;
        hdr.mpls[0].ttl = ttl;
        set_out(port, nh_mac);
    }

    table mpls_label {
        key = {
            hdr.mpls[0].label : exact @name("label");
        }
        actions = {
            swap;
            pop;
            push;
            drop;
        }
        const default_action = drop();
    }

    action impose(bit<20> label, bit<3> tc, bit<9> port, bit<48> nh_mac) {
        hdr.mpls[0].setValid();
        hdr.mpls[0].label = label;
        hdr.mpls[0].tc = tc;
        hdr.mpls[0].bos = 1;
        hdr.mpls[0].ttl = hdr.ipv4.ttl - 1;
        hdr.ethernet.ether_type = ETHERTYPE_MPLS;
        set_out(port, nh_mac);
    }

    table fec {
        key = {
            hdr.ipv4.dst_addr : lpm @name("dst");
        }
        actions = {
            impose;
            drop;
        }
        const default_action = drop();
    }

    apply {
        if (hdr.mpls[0].isValid()) {
            if (hdr.mpls[0].ttl <= 1) {
                drop();
            } else {
                mpls_label.apply();
            }
        } else if (hdr.ipv4.isValid()) {
            fec.apply();
        } else {
            drop();
        }
    }
}

control EgressImpl(inout headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t stdmeta) {
    apply { }
}

control ComputeChecksumImpl(inout headers_t hdr, inout metadata_t meta) {
    apply {
        update_checksum(hdr.ipv4.isValid() && !hdr.mpls[0].isValid(),
            { hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.diffserv, hdr.ipv4.total_len,
              hdr.ipv4.identification, hdr.ipv4.flags, hdr.ipv4.frag_offset,
              hdr.ipv4.ttl, hdr.ipv4.protocol, hdr.ipv4.src_addr, hdr.ipv4.dst_addr },
            hdr.ipv4.hdr_checksum, HashAlgorithm.csum16);
    }
}

control DeparserImpl(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.mpls);
        packet.emit(hdr.ipv4);
    }
}

V1Switch(ParserImpl(), VerifyChecksumImpl(), IngressImpl(), EgressImpl(),
         ComputeChecksumImpl(), DeparserImpl()) main;
