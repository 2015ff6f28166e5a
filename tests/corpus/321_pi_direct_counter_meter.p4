// Corpus 321: direct resources in the style of PI's and BMv2's test programs: a ternary
// ACL with a direct counter and a direct meter whose colour (read into metadata) decides
// between forwarding, remarking and dropping, plus an indexed meter and counter per
// ingress port. Meters nobody configured colour every packet green.
#include <core.p4>
#include <v1model.p4>

const bit<2> COLOR_GREEN  = 0;
const bit<2> COLOR_YELLOW = 1;
const bit<2> COLOR_RED    = 2;

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

struct headers_t {
    ethernet_t ethernet;
    ipv4_t     ipv4;
}

struct metadata_t {
    bit<2> acl_color;
    bit<2> port_color;
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
        transition accept;
    }
}

control VerifyChecksumImpl(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control IngressImpl(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t stdmeta) {
    direct_counter(CounterType.packets_and_bytes) acl_counter;
    direct_meter<bit<2>>(MeterType.bytes) acl_meter;
    meter(32w16, MeterType.packets) port_meter;
    counter(32w16, CounterType.packets) port_green;

    action permit(bit<9> port) {
        acl_meter.read(meta.acl_color);
        stdmeta.egress_spec = port;
    }

    action permit_and_mark(bit<9> port, bit<6> dscp) {
        acl_meter.read(meta.acl_color);
        stdmeta.egress_spec = port;
        hdr.ipv4.dscp = dscp;
    }

    action deny() {
        acl_meter.read(meta.acl_color);
        mark_to_drop(stdmeta);
    }

    table acl {
        key = {
            hdr.ipv4.src_addr : ternary;
            hdr.ipv4.dst_addr : ternary;
            hdr.ipv4.protocol : ternary;
        }
        actions = {
            permit;
            permit_and_mark;
            deny;
        }
        const default_action = deny();
        counters = acl_counter;
        meters = acl_meter;
    }

    apply {
        meta.acl_color = COLOR_GREEN;
        port_meter.execute_meter<bit<2>>((bit<32>) stdmeta.ingress_port, meta.port_color);
        if (meta.port_color == COLOR_GREEN) {
            port_green.count((bit<32>) stdmeta.ingress_port);
        }
        if (hdr.ipv4.isValid()) {
            acl.apply();
            if (meta.acl_color == COLOR_RED || meta.port_color == COLOR_RED) {
                mark_to_drop(stdmeta);
            } else if (meta.acl_color == COLOR_YELLOW) {
                hdr.ipv4.ecn = 3;
            }
        } else {
            mark_to_drop(stdmeta);
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
            { hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.dscp, hdr.ipv4.ecn,
              hdr.ipv4.total_len, hdr.ipv4.identification, hdr.ipv4.flags,
              hdr.ipv4.frag_offset, hdr.ipv4.ttl, hdr.ipv4.protocol,
              hdr.ipv4.src_addr, hdr.ipv4.dst_addr },
            hdr.ipv4.hdr_checksum, HashAlgorithm.csum16);
    }
}

control DeparserImpl(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.ipv4);
    }
}

V1Switch(ParserImpl(), VerifyChecksumImpl(), IngressImpl(), EgressImpl(),
         ComputeChecksumImpl(), DeparserImpl()) main;
