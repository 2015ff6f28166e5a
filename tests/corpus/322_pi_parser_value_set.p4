// Corpus 322: parser value sets in the style of BMv2's and PI's pvs tests: a value_set of
// custom EtherTypes and one of (protocol, UDP port) struct members decide
// which tunnel headers are parsed; constants in the same select keep working when the
// sets are empty (real BMv2 cannot have value sets written over P4Runtime).
#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dst_addr;
    bit<48> src_addr;
    bit<16> ether_type;
}

header custom_t {
    bit<8>  kind;
    bit<8>  flags;
    bit<16> next_type;
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

header udp_t {
    bit<16> src_port;
    bit<16> dst_port;
    bit<16> len;
    bit<16> checksum;
}

header tunnel_t {
    bit<32> id;
}

struct headers_t {
    ethernet_t ethernet;
    custom_t   custom;
    ipv4_t     ipv4;
    udp_t      udp;
    tunnel_t   tunnel;
}

// A value-set member matched against two select expressions at once.
struct tunnel_member_t {
    bit<8>  protocol;
    bit<16> dst_port;
}

struct metadata_t {
    bit<8> path;
}

parser ParserImpl(packet_in packet, out headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t stdmeta) {
    value_set<bit<16>>(4) custom_ethertypes;
    value_set<tunnel_member_t>(8) tunnel_ports;

    state start {
        meta.path = 0;
        packet.extract(hdr.ethernet);
        transition select(hdr.ethernet.ether_type) {
            0x0800: parse_ipv4;
            0x88B5: parse_custom;
            custom_ethertypes: parse_custom;
            default: accept;
        }
    }

    state parse_custom {
        packet.extract(hdr.custom);
        meta.path = 1;
        transition select(hdr.custom.next_type) {
            0x0800: parse_ipv4;
            default: accept;
        }
    }

    state parse_ipv4 {
        packet.extract(hdr.ipv4);
        transition select(hdr.ipv4.protocol) {
            17: parse_udp;
            default: accept;
        }
    }

    state parse_udp {
        packet.extract(hdr.udp);
        transition select(hdr.ipv4.protocol, hdr.udp.dst_port) {
            tunnel_ports: parse_tunnel;
            (17, 4789): parse_tunnel;
            default: accept;
        }
    }

    state parse_tunnel {
        packet.extract(hdr.tunnel);
        meta.path = meta.path + 2;
        transition accept;
    }
}

control VerifyChecksumImpl(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control IngressImpl(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t stdmeta) {
    apply {
        // The port says which headers were parsed: 1 + path.
        stdmeta.egress_spec = (bit<9>) meta.path + 1;
        if (hdr.tunnel.isValid()) {
            hdr.tunnel.id = hdr.tunnel.id + 1;
        }
    }
}

control EgressImpl(inout headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t stdmeta) {
    apply { }
}

control ComputeChecksumImpl(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control DeparserImpl(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.custom);
        packet.emit(hdr.ipv4);
        packet.emit(hdr.udp);
        packet.emit(hdr.tunnel);
    }
}

V1Switch(ParserImpl(), VerifyChecksumImpl(), IngressImpl(), EgressImpl(),
         ComputeChecksumImpl(), DeparserImpl()) main;
