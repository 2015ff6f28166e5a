/* Lab "credits": receiver-driven credits, scaled down where data is busy.
 *
 * With receiver-driven congestion control the receiver grants credits:
 * a CREDIT packet tells the sender how many bytes it may send next. The
 * data those credits release will cross the same links in the other
 * direction, so a switch that sees a credit arrive on a port whose data
 * queue is building scales the credit down (and marks it): the sender
 * then sends less into the busy port before any packet is lost.
 * Each port's data queue depth is recorded in egress by the data packets
 * that leave it and read in ingress by the credits that arrive on it.
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

const bit<16> UEC_UDP_PORT = 4793;
const bit<8>  KIND_CREDIT  = 7;

// A simplified UEC control header after UDP.
header uec_ctl_t {
    bit<8>  kind;      // KIND_CREDIT for a credit
    bit<1>  marked;    // set by a switch that reduced the credit
    bit<7>  rsvd;
    bit<16> credit;    // bytes the sender may send
}

struct credit_headers_t {
    ethernet_t ethernet;
    ipv4_t     ipv4;
    udp_t      udp;
    uec_ctl_t  uec;
}

struct metadata_t {
    bit<19> depth;   // data queue depth of the port a credit arrived on
}

// Depth of each port's data queue, left behind by the last packet out of it.
// Top level, so that egress writes and ingress reads the same cells.
register<bit<19>>(512) port_depth;

parser LabParser(packet_in pkt, out credit_headers_t hdr, inout metadata_t meta,
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
        transition select(hdr.udp.dst_port) {
            UEC_UDP_PORT: parse_uec;
            default: accept;
        }
    }
    state parse_uec {
        pkt.extract(hdr.uec);
        transition accept;
    }
}

control LabVerifyChecksum(inout credit_headers_t hdr, inout metadata_t meta) {
    apply { }
}

control LabIngress(inout credit_headers_t hdr, inout metadata_t meta,
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

    action reduce_credit(bit<8> shift) {
        hdr.uec.credit = hdr.uec.credit >> shift;
        hdr.uec.marked = 1;
        hdr.udp.checksum = 0;   // 0: no UDP checksum (it no longer matches)
    }
    // Per arrival port, bands of queue depth and how far a credit crossing
    // them is reduced (shifted right). No band matched: left as it is.
    table credit_bands {
        key = {
            std_meta.ingress_port: exact;
            meta.depth:            range;
        }
        actions = { reduce_credit; NoAction; }
        default_action = NoAction();
    }

    apply {
        if (hdr.ipv4.isValid()) {
            routes.apply();
        } else {
            drop();
        }
        if (hdr.uec.isValid() && hdr.uec.kind == KIND_CREDIT) {
            port_depth.read(meta.depth, (bit<32>) std_meta.ingress_port);
            credit_bands.apply();
        }
    }
}

control LabEgress(inout credit_headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t std_meta) {
    apply {
        // deq_qdepth: what this packet left behind in its port's queue.
        port_depth.write((bit<32>) std_meta.egress_port, std_meta.deq_qdepth);
    }
}

control LabComputeChecksum(inout credit_headers_t hdr, inout metadata_t meta) {
    apply {
        update_checksum(hdr.ipv4.isValid(),
            { hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.dscp, hdr.ipv4.ecn,
              hdr.ipv4.total_len, hdr.ipv4.identification, hdr.ipv4.flags,
              hdr.ipv4.frag_offset, hdr.ipv4.ttl, hdr.ipv4.protocol,
              hdr.ipv4.src_addr, hdr.ipv4.dst_addr },
            hdr.ipv4.hdr_checksum, HashAlgorithm.csum16);
    }
}

control LabDeparser(packet_out pkt, in credit_headers_t hdr) {
    apply {
        pkt.emit(hdr.ethernet);
        pkt.emit(hdr.ipv4);
        pkt.emit(hdr.udp);
        pkt.emit(hdr.uec);
    }
}

V1Switch(LabParser(), LabVerifyChecksum(), LabIngress(), LabEgress(),
         LabComputeChecksum(), LabDeparser()) main;
