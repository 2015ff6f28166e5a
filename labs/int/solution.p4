/* Lab "int": in-band network telemetry, one hop record per switch.
 *
 * Why was a packet late, and where? With INT, the packet itself collects
 * the answer: a sender marks it (here with DSCP INT_DSCP) and adds an INT
 * header after UDP; every switch on the path pushes a small record (its
 * id, where the packet came in and went out) in front of those already
 * there. The last hop or the receiver reads the whole path. A real INT-MD
 * header (see p4src/include/control/int_transit.p4) carries more fields,
 * such as queue depths and latencies; the mechanics are these.
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

const bit<6> INT_DSCP  = 0x17;   // the sender's mark: an INT header follows UDP
const bit<8> MAX_STACK = 4;      // hop records this program can parse

// After UDP: how many records follow and how many the sender allows.
header int_shim_t {
    bit<8>  hop_count;
    bit<8>  max_hops;
    bit<16> rsvd;
}

// One switch's record (4 bytes).
header int_hop_t {
    bit<16> switch_id;
    bit<8>  ingress_port;
    bit<8>  egress_port;
}

struct int_headers_t {
    ethernet_t   ethernet;
    ipv4_t       ipv4;
    udp_t        udp;
    int_shim_t   shim;
    int_hop_t[4] hops;   // newest first
}

struct metadata_t {
    bit<8>  records_left;   // parser: records still to extract
    bit<16> switch_id;
}

parser LabParser(packet_in pkt, out int_headers_t hdr, inout metadata_t meta,
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
        transition select(hdr.ipv4.dscp) {
            INT_DSCP: parse_shim;
            default: accept;
        }
    }
    state parse_shim {
        pkt.extract(hdr.shim);
        meta.records_left = hdr.shim.hop_count;
        transition select(meta.records_left) {
            0: accept;
            default: parse_hop;
        }
    }
    state parse_hop {
        pkt.extract(hdr.hops.next);
        meta.records_left = meta.records_left - 1;
        transition select(meta.records_left) {
            0: accept;
            default: parse_hop;
        }
    }
}

control LabVerifyChecksum(inout int_headers_t hdr, inout metadata_t meta) {
    apply { }
}

control LabIngress(inout int_headers_t hdr, inout metadata_t meta,
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

control LabEgress(inout int_headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t std_meta) {
    action set_switch_id(bit<16> id) {
        meta.switch_id = id;
    }
    // No key: its default action holds this switch's id.
    table switch_info {
        actions = { set_switch_id; }
        default_action = set_switch_id(0);
    }

    action add_hop_record() {
        hdr.hops.push_front(1);       // shift the records down by one
        hdr.hops[0].setValid();        // push_front leaves the new slot invalid
        hdr.hops[0].switch_id = meta.switch_id;
        hdr.hops[0].ingress_port = (bit<8>) std_meta.ingress_port;
        hdr.hops[0].egress_port = (bit<8>) std_meta.egress_port;
        hdr.shim.hop_count = hdr.shim.hop_count + 1;
        hdr.ipv4.total_len = hdr.ipv4.total_len + 4;   // the record's 4 bytes
        hdr.udp.length = hdr.udp.length + 4;
        hdr.udp.checksum = 0;   // 0: no UDP checksum (it no longer matches)
    }

    apply {
        // Egress knows both ports. A full stack, or as many records as the
        // sender allows, leaves the packet unchanged.
        if (hdr.shim.isValid() && hdr.shim.hop_count < hdr.shim.max_hops
                && hdr.shim.hop_count < MAX_STACK) {
            switch_info.apply();
            add_hop_record();
        }
    }
}

control LabComputeChecksum(inout int_headers_t hdr, inout metadata_t meta) {
    apply {
        update_checksum(hdr.ipv4.isValid(),
            { hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.dscp, hdr.ipv4.ecn,
              hdr.ipv4.total_len, hdr.ipv4.identification, hdr.ipv4.flags,
              hdr.ipv4.frag_offset, hdr.ipv4.ttl, hdr.ipv4.protocol,
              hdr.ipv4.src_addr, hdr.ipv4.dst_addr },
            hdr.ipv4.hdr_checksum, HashAlgorithm.csum16);
    }
}

control LabDeparser(packet_out pkt, in int_headers_t hdr) {
    apply {
        pkt.emit(hdr.ethernet);
        pkt.emit(hdr.ipv4);
        pkt.emit(hdr.udp);
        pkt.emit(hdr.shim);
        pkt.emit(hdr.hops);
    }
}

V1Switch(LabParser(), LabVerifyChecksum(), LabIngress(), LabEgress(),
         LabComputeChecksum(), LabDeparser()) main;
