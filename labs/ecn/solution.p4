/* Lab "ecn": ECN marking at a congested egress queue.
 *
 * A packet whose sender understands ECN (ECT(0) or ECT(1) in the IPv4 ECN
 * bits) and that meets a queue at least as deep as its port's threshold is
 * marked Congestion Experienced (CE) instead of being dropped; the
 * receiver echoes the mark and the sender slows down. Packets of senders
 * that do not understand ECN (Not-ECT) are never marked.
 */
#include <core.p4>
#include <v1model.p4>

const bit<16> ETHERTYPE_IPV4 = 0x0800;
const bit<8>  IP_PROTO_UDP   = 17;

header ethernet_t {
    bit<48> dst_addr;
    bit<48> src_addr;
    bit<16> ether_type;
}

header ipv4_t {
    bit<4>  version;
    bit<4>  ihl;
    bit<6>  dscp;
    bit<2>  ecn;
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

header udp_t {
    bit<16> src_port;
    bit<16> dst_port;
    bit<16> length;
    bit<16> checksum;
}

struct headers_t {
    ethernet_t ethernet;
    ipv4_t     ipv4;
    udp_t      udp;
}

const bit<2> ECN_NOT_ECT = 0;
const bit<2> ECN_CE      = 3;

struct metadata_t {
    bit<19> threshold;   // queue depth, in packets, at which marking starts
}

parser LabParser(packet_in pkt, out headers_t hdr, inout metadata_t meta,
                 inout standard_metadata_t std_meta) {
    state start {
        pkt.extract(hdr.ethernet);
        transition select(hdr.ethernet.ether_type) {
            ETHERTYPE_IPV4: parse_ipv4;
            default: accept;
        }
    }
    state parse_ipv4 {
        pkt.extract(hdr.ipv4);
        transition select(hdr.ipv4.protocol) {
            IP_PROTO_UDP: parse_udp;
            default: accept;
        }
    }
    state parse_udp {
        pkt.extract(hdr.udp);
        transition accept;
    }
}

control LabVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control LabIngress(inout headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t std_meta) {
    action drop() {
        mark_to_drop(std_meta);
    }
    action forward(bit<9> port) {
        std_meta.egress_spec = port;
    }
    table routes {
        key = { hdr.ipv4.dst_addr: lpm; }
        actions = { forward; drop; }
        default_action = drop();
    }
    apply {
        if (hdr.ipv4.isValid()) {
            routes.apply();
        } else {
            drop();
        }
    }
}

control LabEgress(inout headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t std_meta) {
    action set_threshold(bit<19> depth) {
        meta.threshold = depth;
    }
    // Ports that mark, with their threshold. No entry: the port never marks.
    table ecn_thresholds {
        key = { std_meta.egress_port: exact; }
        actions = { set_threshold; NoAction; }
        default_action = NoAction();
    }
    apply {
        if (hdr.ipv4.isValid()) {
            if (ecn_thresholds.apply().hit) {
                // enq_qdepth: packets already queued when this one arrived.
                if (hdr.ipv4.ecn != ECN_NOT_ECT
                        && std_meta.enq_qdepth >= meta.threshold) {
                    hdr.ipv4.ecn = ECN_CE;
                }
            }
        }
    }
}

control LabComputeChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply {
        update_checksum(hdr.ipv4.isValid(),
            { hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.dscp, hdr.ipv4.ecn,
              hdr.ipv4.total_len, hdr.ipv4.identification, hdr.ipv4.flags,
              hdr.ipv4.frag_offset, hdr.ipv4.ttl, hdr.ipv4.protocol,
              hdr.ipv4.src_addr, hdr.ipv4.dst_addr },
            hdr.ipv4.hdr_checksum, HashAlgorithm.csum16);
    }
}

control LabDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.ethernet);
        pkt.emit(hdr.ipv4);
        pkt.emit(hdr.udp);
    }
}

V1Switch(LabParser(), LabVerifyChecksum(), LabIngress(), LabEgress(),
         LabComputeChecksum(), LabDeparser()) main;
