/* Lab "partitions": tenants isolated on one shared fabric.
 *
 * Two tenants (or a training job and the storage front end) share the
 * switch and may even use the same IP addresses. Each ingress port belongs
 * to a partition; the partition chooses which routes a packet sees, and an
 * egress port that belongs to one partition refuses packets of any other,
 * so that even a wrong route cannot leak traffic. Ports of no partition
 * (uplinks, shared services) carry every partition.
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

struct metadata_t {
    bit<8> partition;        // of the packet: from its ingress port
    bit<8> port_partition;   // of its egress port, if the port has one
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
    action set_partition(bit<8> id) {
        meta.partition = id;
    }
    // Ingress port -> partition. No entry: partition 0.
    table partitions {
        key = { std_meta.ingress_port: exact; }
        actions = { set_partition; NoAction; }
        default_action = NoAction();
    }

    action forward(bit<9> port) {
        std_meta.egress_spec = port;
    }
    // Each partition has its own routes: the same prefix may go to
    // different ports in different partitions.
    table routes {
        key = {
            meta.partition:   exact;
            hdr.ipv4.dst_addr: lpm;
        }
        actions = { forward; drop; }
        default_action = drop();
    }

    apply {
        meta.partition = 0;
        partitions.apply();
        if (hdr.ipv4.isValid()) {
            routes.apply();
        } else {
            drop();
        }
    }
}

control LabEgress(inout headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t std_meta) {
    action restrict_to(bit<8> id) {
        meta.port_partition = id;
    }
    // Egress port -> the one partition allowed out of it. No entry: shared.
    table port_partitions {
        key = { std_meta.egress_port: exact; }
        actions = { restrict_to; NoAction; }
        default_action = NoAction();
    }

    apply {
        if (port_partitions.apply().hit) {
            if (meta.port_partition != meta.partition) {
                mark_to_drop(std_meta);   // a route leaked it: stop it here
            }
        }
    }
}

control LabComputeChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
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
