// Corpus 327: a gateway that answers for its own addresses in the data plane, in the style
// of p4-learning's and the ONOS/p4lang ARP-proxy demos: ARP requests for a gateway IP get
// an ARP reply built in place, ICMP echo requests to it an echo reply (addresses swapped,
// ICMP checksum recomputed over header and payload), other IPv4 is routed.
#include <core.p4>
#include <v1model.p4>

const bit<16> ETHERTYPE_IPV4 = 0x0800;
const bit<16> ETHERTYPE_ARP  = 0x0806;
const bit<16> ARP_OPER_REQUEST = 1;
const bit<16> ARP_OPER_REPLY   = 2;
const bit<8>  ICMP_ECHO_REQUEST = 8;
const bit<8>  ICMP_ECHO_REPLY   = 0;

header ethernet_t {
    bit<48> dst_addr;
    bit<48> src_addr;
    bit<16> ether_type;
}

header arp_t {
    bit<16> htype;
    bit<16> ptype;
    bit<8>  hlen;
    bit<8>  plen;
    bit<16> oper;
    bit<48> sha;
    bit<32> spa;
    bit<48> tha;
    bit<32> tpa;
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

header icmp_t {
    bit<8>  type;
    bit<8>  code;
    bit<16> checksum;
    bit<16> identifier;
    bit<16> sequence;
}

struct headers_t {
    ethernet_t ethernet;
    arp_t      arp;
    ipv4_t     ipv4;
    icmp_t     icmp;
}

struct metadata_t {
    bool recompute_icmp;
}

parser ParserImpl(packet_in packet, out headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t stdmeta) {
    state start {
        meta.recompute_icmp = false;
        packet.extract(hdr.ethernet);
        transition select(hdr.ethernet.ether_type) {
            ETHERTYPE_ARP: parse_arp;
            ETHERTYPE_IPV4: parse_ipv4;
            default: accept;
        }
    }

    state parse_arp {
        packet.extract(hdr.arp);
        transition accept;
    }

    state parse_ipv4 {
        packet.extract(hdr.ipv4);
        transition select(hdr.ipv4.protocol, hdr.ipv4.ihl) {
            (1, 5): parse_icmp;
            default: accept;
        }
    }

    state parse_icmp {
        packet.extract(hdr.icmp);
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

    action arp_reply(bit<48> gateway_mac) {
        hdr.ethernet.dst_addr = hdr.arp.sha;
        hdr.ethernet.src_addr = gateway_mac;
        hdr.arp.oper = ARP_OPER_REPLY;
        hdr.arp.tha = hdr.arp.sha;
        bit<32> asked = hdr.arp.tpa;
        hdr.arp.tpa = hdr.arp.spa;
        hdr.arp.sha = gateway_mac;
        hdr.arp.spa = asked;
        stdmeta.egress_spec = stdmeta.ingress_port;
    }

    table arp_responder {
        key = {
            hdr.arp.tpa : exact @name("gateway_ip");
        }
        actions = {
            arp_reply;
            @defaultonly drop;
        }
        const default_action = drop();
    }

    action echo_reply() {
        bit<48> mac = hdr.ethernet.dst_addr;
        hdr.ethernet.dst_addr = hdr.ethernet.src_addr;
        hdr.ethernet.src_addr = mac;
        bit<32> addr = hdr.ipv4.dst_addr;
        hdr.ipv4.dst_addr = hdr.ipv4.src_addr;
        hdr.ipv4.src_addr = addr;
        hdr.ipv4.ttl = 64;
        hdr.icmp.type = ICMP_ECHO_REPLY;
        meta.recompute_icmp = true;
        stdmeta.egress_spec = stdmeta.ingress_port;
    }

    table icmp_responder {
        key = {
            hdr.ipv4.dst_addr : exact @name("gateway_ip");
            hdr.icmp.type     : exact @name("icmp_type");
        }
        actions = {
            echo_reply;
            @defaultonly NoAction;
        }
        const default_action = NoAction();
    }

    action route(bit<9> port, bit<48> smac, bit<48> dmac) {
        stdmeta.egress_spec = port;
        hdr.ethernet.src_addr = smac;
        hdr.ethernet.dst_addr = dmac;
        hdr.ipv4.ttl = hdr.ipv4.ttl - 1;
    }

    table routes {
        key = {
            hdr.ipv4.dst_addr : lpm @name("dst");
        }
        actions = {
            route;
            drop;
        }
        const default_action = drop();
    }

    apply {
        if (hdr.arp.isValid()) {
            if (hdr.arp.oper == ARP_OPER_REQUEST) {
                arp_responder.apply();
            } else {
                drop();
            }
        } else if (hdr.ipv4.isValid()) {
            bool answered = false;
            if (hdr.icmp.isValid()) {
                answered = icmp_responder.apply().hit;
            }
            if (!answered) {
                routes.apply();
            }
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
        update_checksum(hdr.ipv4.isValid(),
            { hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.diffserv, hdr.ipv4.total_len,
              hdr.ipv4.identification, hdr.ipv4.flags, hdr.ipv4.frag_offset,
              hdr.ipv4.ttl, hdr.ipv4.protocol, hdr.ipv4.src_addr, hdr.ipv4.dst_addr },
            hdr.ipv4.hdr_checksum, HashAlgorithm.csum16);
        update_checksum_with_payload(meta.recompute_icmp,
            { hdr.icmp.type, hdr.icmp.code, hdr.icmp.identifier, hdr.icmp.sequence },
            hdr.icmp.checksum, HashAlgorithm.csum16);
    }
}

control DeparserImpl(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.arp);
        packet.emit(hdr.ipv4);
        packet.emit(hdr.icmp);
    }
}

V1Switch(ParserImpl(), VerifyChecksumImpl(), IngressImpl(), EgressImpl(),
         ComputeChecksumImpl(), DeparserImpl()) main;
