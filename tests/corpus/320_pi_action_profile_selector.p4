// Corpus 320: indirect tables in the style of PI's and BMv2's test programs: one action
// profile shared by two tables (members reused), an action selector hashing five fields
// for a WCMP next-hop group, and a direct table behind them. p4c warns, as it does for
// every BMv2 table with an action profile, that such tables take no default_action.
#include <core.p4>
#include <v1model.p4>

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

header ports_t {
    bit<16> src_port;
    bit<16> dst_port;
}

struct headers_t {
    ethernet_t ethernet;
    ipv4_t     ipv4;
    ports_t    ports;
}

struct metadata_t {
    bit<16> nexthop_group;
    bit<8>  vrf;
}

parser ParserImpl(packet_in packet, out headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t stdmeta) {
    state start {
        packet.extract(hdr.ethernet);
        transition select(hdr.ethernet.ether_type) {
            0x0800: parse_ipv4;
            default: accept;
        }
    }

    state parse_ipv4 {
        packet.extract(hdr.ipv4);
        transition select(hdr.ipv4.protocol) {
            6: parse_ports;
            17: parse_ports;
            default: accept;
        }
    }

    state parse_ports {
        packet.extract(hdr.ports);
        transition accept;
    }
}

control VerifyChecksumImpl(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control IngressImpl(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t stdmeta) {
    action set_vrf(bit<8> vrf) {
        meta.vrf = vrf;
    }

    action set_nexthop_group(bit<16> group) {
        meta.nexthop_group = group;
    }

    action drop() {
        mark_to_drop(stdmeta);
    }

    action_profile(32w64) vrf_profile;

    table port_vrf {
        key = {
            stdmeta.ingress_port : exact;
        }
        actions = {
            set_vrf;
            NoAction;
        }
        implementation = vrf_profile;
        size = 64;
    }

    table mac_vrf {
        key = {
            hdr.ethernet.src_addr : exact;
        }
        actions = {
            set_vrf;
            NoAction;
        }
        implementation = vrf_profile;
        size = 64;
    }

    table routes {
        key = {
            meta.vrf          : exact;
            hdr.ipv4.dst_addr : lpm;
        }
        actions = {
            set_nexthop_group;
            drop;
        }
        const default_action = drop();
    }

    action set_nexthop(bit<9> port, bit<48> dmac) {
        stdmeta.egress_spec = port;
        hdr.ethernet.dst_addr = dmac;
        hdr.ipv4.ttl = hdr.ipv4.ttl - 1;
    }

    action_selector(HashAlgorithm.crc32, 32w1024, 32w10) wcmp_selector;

    table wcmp_group {
        key = {
            meta.nexthop_group  : exact;
            hdr.ipv4.src_addr   : selector;
            hdr.ipv4.dst_addr   : selector;
            hdr.ipv4.protocol   : selector;
            hdr.ports.src_port  : selector;
            hdr.ports.dst_port  : selector;
        }
        actions = {
            set_nexthop;
            drop;
        }
        implementation = wcmp_selector;
        size = 128;
    }

    apply {
        meta.vrf = 0;
        meta.nexthop_group = 0;
        stdmeta.egress_spec = 1;
        if (hdr.ipv4.isValid()) {
            if (!port_vrf.apply().hit) {
                mac_vrf.apply();
            }
            routes.apply();
            if (meta.nexthop_group != 0) {
                wcmp_group.apply();
            }
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
    }
}

control DeparserImpl(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.ipv4);
        packet.emit(hdr.ports);
    }
}

V1Switch(ParserImpl(), VerifyChecksumImpl(), IngressImpl(), EgressImpl(),
         ComputeChecksumImpl(), DeparserImpl()) main;
