/* Lab "spraying": per-packet round-robin spraying of UEC traffic.
 *
 * Packets to a destination behind the fabric may leave by any of four
 * uplinks (buckets 0-3 of the table "uplinks"). Ordinary flows take ECMP:
 * a hash of the 5-tuple picks the bucket, so every packet of a flow takes
 * the same uplink. UEC packets (UDP port 4793) tolerate reordering, so
 * they are sprayed: each one takes the next bucket in turn, and a single
 * flow uses every uplink evenly.
 */
#include <core.p4>
#include <v1model.p4>

const bit<16> ETHERTYPE_IPV4 = 0x0800;
const bit<8>  IP_PROTO_UDP   = 17;
const bit<16> UEC_UDP_PORT   = 4793;

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
    bool    to_uplinks;
    bit<2>  bucket;   // 0-3: four buckets, so a 2-bit count wraps by itself
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
    // The bucket the next sprayed packet takes (one cell for the switch).
    register<bit<2>>(1) next_bucket;

    action drop() {
        mark_to_drop(std_meta);
    }
    action forward(bit<9> port) {
        std_meta.egress_spec = port;
    }
    action use_uplinks() {
        meta.to_uplinks = true;
    }
    table routes {
        key = { hdr.ipv4.dst_addr: lpm; }
        actions = { forward; use_uplinks; drop; }
        default_action = drop();
    }

    action set_uplink(bit<9> port) {
        std_meta.egress_spec = port;
    }
    // Bucket -> uplink port. Two uplinks fill the four buckets twice.
    table uplinks {
        key = { meta.bucket: exact; }
        actions = { set_uplink; drop; }
        default_action = drop();
        size = 4;
    }

    apply {
        meta.to_uplinks = false;
        if (hdr.ipv4.isValid()) {
            routes.apply();
        } else {
            drop();
        }
        if (meta.to_uplinks) {
            // ECMP: the same 5-tuple always gives the same bucket.
            hash(meta.bucket, HashAlgorithm.crc16, (bit<2>) 0,
                 { hdr.ipv4.src_addr, hdr.ipv4.dst_addr, hdr.ipv4.protocol,
                   hdr.udp.src_port, hdr.udp.dst_port },
                 (bit<3>) 4);
            if (hdr.udp.isValid() && hdr.udp.dst_port == UEC_UDP_PORT) {
                // Spraying: this packet takes the next bucket in turn.
                next_bucket.read(meta.bucket, 0);
                next_bucket.write(0, meta.bucket + 1);  // 3 + 1 wraps to 0
            }
            uplinks.apply();
        }
    }
}

control LabEgress(inout headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t std_meta) {
    apply { }
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
