// Corpus 326: a VXLAN L2 gateway in the style of p4-learning's and BMv2 examples' VTEPs:
// access ports map to a VNI; a remote MAC table gives the remote VTEP, local MACs a port;
// frames to remote MACs are encapsulated (outer Ethernet/IPv4/UDP 4789/VXLAN, UDP source
// port from a hash of the inner frame), VXLAN frames for a local VNI are decapsulated and
// bridged; unknown destinations are dropped.
#include <core.p4>
#include <v1model.p4>

const bit<16> ETHERTYPE_IPV4 = 0x0800;
const bit<16> UDP_PORT_VXLAN = 4789;

header ethernet_t {
    bit<48> dst_addr;
    bit<48> src_addr;
    bit<16> ether_type;
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

header vxlan_t {
    bit<8>  flags;
    bit<24> reserved;
    bit<24> vni;
    bit<8>  reserved2;
}

struct headers_t {
    ethernet_t outer_ethernet;
    ipv4_t     outer_ipv4;
    udp_t      outer_udp;
    vxlan_t    vxlan;
    ethernet_t ethernet;
}

struct metadata_t {
    bit<24> vni;
    bit<32> remote_vtep;
    bit<16> inner_len;
    bit<16> entropy;
}

parser ParserImpl(packet_in packet, out headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t stdmeta) {
    state start {
        meta.inner_len = (bit<16>) stdmeta.packet_length;
        transition select(packet.lookahead<ethernet_t>().ether_type) {
            ETHERTYPE_IPV4: parse_outer;
            default: parse_inner;
        }
    }

    state parse_outer {
        packet.extract(hdr.outer_ethernet);
        packet.extract(hdr.outer_ipv4);
        transition select(hdr.outer_ipv4.protocol, hdr.outer_ipv4.ihl) {
            (17, 5): parse_outer_udp;
            default: accept;
        }
    }

    state parse_outer_udp {
        packet.extract(hdr.outer_udp);
        transition select(hdr.outer_udp.dst_port) {
            UDP_PORT_VXLAN: parse_vxlan;
            default: accept;
        }
    }

    state parse_vxlan {
        packet.extract(hdr.vxlan);
        transition parse_inner;
    }

    state parse_inner {
        packet.extract(hdr.ethernet);
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

    action set_vni(bit<24> vni) {
        meta.vni = vni;
    }

    table port_vni {
        key = {
            stdmeta.ingress_port : exact @name("port");
        }
        actions = {
            set_vni;
            @defaultonly drop;
        }
        const default_action = drop();
    }

    action local_vni() {
        meta.vni = hdr.vxlan.vni;
        hdr.outer_ethernet.setInvalid();
        hdr.outer_ipv4.setInvalid();
        hdr.outer_udp.setInvalid();
        hdr.vxlan.setInvalid();
    }

    table vtep_termination {
        key = {
            hdr.outer_ipv4.dst_addr : exact @name("local_vtep");
            hdr.vxlan.vni           : exact @name("vni");
        }
        actions = {
            local_vni;
            @defaultonly drop;
        }
        const default_action = drop();
    }

    action to_local(bit<9> port) {
        stdmeta.egress_spec = port;
    }

    action to_remote(bit<32> remote_vtep, bit<9> uplink) {
        meta.remote_vtep = remote_vtep;
        stdmeta.egress_spec = uplink;
    }

    table l2_fwd {
        key = {
            meta.vni              : exact @name("vni");
            hdr.ethernet.dst_addr : exact @name("dst_mac");
        }
        actions = {
            to_local;
            to_remote;
            @defaultonly drop;
        }
        const default_action = drop();
    }

    action encap(bit<32> local_vtep, bit<48> router_mac, bit<48> nh_mac) {
        hdr.outer_ethernet.setValid();
        hdr.outer_ethernet.dst_addr = nh_mac;
        hdr.outer_ethernet.src_addr = router_mac;
        hdr.outer_ethernet.ether_type = ETHERTYPE_IPV4;
        hdr.outer_ipv4.setValid();
        hdr.outer_ipv4.version = 4;
        hdr.outer_ipv4.ihl = 5;
        hdr.outer_ipv4.diffserv = 0;
        hdr.outer_ipv4.total_len = meta.inner_len + 36;
        hdr.outer_ipv4.identification = 0;
        hdr.outer_ipv4.flags = 2;
        hdr.outer_ipv4.frag_offset = 0;
        hdr.outer_ipv4.ttl = 64;
        hdr.outer_ipv4.protocol = 17;
        hdr.outer_ipv4.src_addr = local_vtep;
        hdr.outer_ipv4.dst_addr = meta.remote_vtep;
        hdr.outer_udp.setValid();
        // Entropy for the underlay: a hash of the inner addresses in the dynamic range.
        hash(meta.entropy, HashAlgorithm.crc16, 16w0,
             { hdr.ethernet.dst_addr, hdr.ethernet.src_addr, hdr.ethernet.ether_type },
             32w65536);
        hdr.outer_udp.src_port = meta.entropy | 0xC000;
        hdr.outer_udp.dst_port = UDP_PORT_VXLAN;
        hdr.outer_udp.len = meta.inner_len + 16;
        hdr.outer_udp.checksum = 0;
        hdr.vxlan.setValid();
        hdr.vxlan.flags = 0x08;
        hdr.vxlan.reserved = 0;
        hdr.vxlan.vni = meta.vni;
        hdr.vxlan.reserved2 = 0;
    }

    table vtep_encap {
        key = {
            meta.remote_vtep : exact @name("remote_vtep");
        }
        actions = {
            encap;
            @defaultonly drop;
        }
        const default_action = drop();
    }

    apply {
        meta.remote_vtep = 0;
        if (!hdr.ethernet.isValid()) {
            // IPv4 that is not VXLAN: not for this gateway.
            drop();
            return;
        }
        if (hdr.vxlan.isValid()) {
            vtep_termination.apply();
        } else {
            port_vni.apply();
        }
        l2_fwd.apply();
        if (meta.remote_vtep != 0) {
            vtep_encap.apply();
        }
    }
}

control EgressImpl(inout headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t stdmeta) {
    apply { }
}

control ComputeChecksumImpl(inout headers_t hdr, inout metadata_t meta) {
    apply {
        update_checksum(hdr.outer_ipv4.isValid(),
            { hdr.outer_ipv4.version, hdr.outer_ipv4.ihl, hdr.outer_ipv4.diffserv,
              hdr.outer_ipv4.total_len, hdr.outer_ipv4.identification,
              hdr.outer_ipv4.flags, hdr.outer_ipv4.frag_offset, hdr.outer_ipv4.ttl,
              hdr.outer_ipv4.protocol, hdr.outer_ipv4.src_addr, hdr.outer_ipv4.dst_addr },
            hdr.outer_ipv4.hdr_checksum, HashAlgorithm.csum16);
    }
}

control DeparserImpl(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.outer_ethernet);
        packet.emit(hdr.outer_ipv4);
        packet.emit(hdr.outer_udp);
        packet.emit(hdr.vxlan);
        packet.emit(hdr.ethernet);
    }
}

V1Switch(ParserImpl(), VerifyChecksumImpl(), IngressImpl(), EgressImpl(),
         ComputeChecksumImpl(), DeparserImpl()) main;
