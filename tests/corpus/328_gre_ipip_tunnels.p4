// Corpus 328: IP tunnels in the style of p4lang's and p4-guide's tunnelling examples: a
// tunnel table keyed by the inner destination prefix encapsulates in GRE (protocol 47,
// with an optional key) or IP-in-IP (protocol 4); packets arriving for a local tunnel
// endpoint are decapsulated (GRE with a known key, or IP-in-IP) and routed on the inner
// header. A header is copied into another slot of the same type for the encapsulation.
#include <core.p4>
#include <v1model.p4>

const bit<16> ETHERTYPE_IPV4 = 0x0800;
const bit<8>  PROTO_IPIP = 4;
const bit<8>  PROTO_GRE  = 47;

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

header gre_t {
    bit<1>  checksum_present;
    bit<1>  routing_present;
    bit<1>  key_present;
    bit<1>  sequence_present;
    bit<1>  strict_source_route;
    bit<3>  recursion_control;
    bit<5>  flags;
    bit<3>  version;
    bit<16> protocol;
}

header gre_key_t {
    bit<32> key;
}

struct headers_t {
    ethernet_t ethernet;
    ipv4_t     outer_ipv4;
    gre_t      gre;
    gre_key_t  gre_key;
    ipv4_t     ipv4;
}

struct metadata_t {
    bool decapped;
}

parser ParserImpl(packet_in packet, out headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t stdmeta) {
    state start {
        packet.extract(hdr.ethernet);
        transition select(hdr.ethernet.ether_type) {
            ETHERTYPE_IPV4: parse_first_ipv4;
            default: accept;
        }
    }

    // The first IPv4 header is the outer one only if a tunnel header follows.
    state parse_first_ipv4 {
        transition select(packet.lookahead<ipv4_t>().protocol) {
            PROTO_GRE: parse_outer_ipv4;
            PROTO_IPIP: parse_outer_ipv4;
            default: parse_inner_ipv4;
        }
    }

    state parse_outer_ipv4 {
        packet.extract(hdr.outer_ipv4);
        transition select(hdr.outer_ipv4.protocol) {
            PROTO_GRE: parse_gre;
            default: parse_inner_ipv4;
        }
    }

    state parse_gre {
        packet.extract(hdr.gre);
        transition select(hdr.gre.key_present, hdr.gre.protocol) {
            (1, ETHERTYPE_IPV4): parse_gre_key;
            (0, ETHERTYPE_IPV4): parse_inner_ipv4;
            default: accept;
        }
    }

    state parse_gre_key {
        packet.extract(hdr.gre_key);
        transition parse_inner_ipv4;
    }

    state parse_inner_ipv4 {
        packet.extract(hdr.ipv4);
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

    action decap() {
        hdr.outer_ipv4.setInvalid();
        hdr.gre.setInvalid();
        hdr.gre_key.setInvalid();
        meta.decapped = true;
    }

    table tunnel_termination {
        key = {
            hdr.outer_ipv4.dst_addr : exact @name("local_endpoint");
            hdr.outer_ipv4.protocol : exact @name("proto");
            hdr.gre_key.key         : ternary @name("gre_key");
        }
        actions = {
            decap;
            @defaultonly drop;
        }
        const default_action = drop();
    }

    @hidden
    action outer_from_inner(bit<32> src, bit<32> dst, bit<8> proto, bit<16> extra) {
        hdr.outer_ipv4 = hdr.ipv4;
        hdr.outer_ipv4.diffserv = 0;
        hdr.outer_ipv4.identification = 0;
        hdr.outer_ipv4.flags = 0;
        hdr.outer_ipv4.frag_offset = 0;
        hdr.outer_ipv4.ttl = 64;
        hdr.outer_ipv4.protocol = proto;
        hdr.outer_ipv4.src_addr = src;
        hdr.outer_ipv4.dst_addr = dst;
        hdr.outer_ipv4.total_len = hdr.ipv4.total_len + 20 + extra;
    }

    action gre_encap(bit<32> src, bit<32> dst) {
        outer_from_inner(src, dst, PROTO_GRE, 4);
        hdr.gre.setValid();
        hdr.gre.checksum_present = 0;
        hdr.gre.routing_present = 0;
        hdr.gre.key_present = 0;
        hdr.gre.sequence_present = 0;
        hdr.gre.strict_source_route = 0;
        hdr.gre.recursion_control = 0;
        hdr.gre.flags = 0;
        hdr.gre.version = 0;
        hdr.gre.protocol = ETHERTYPE_IPV4;
    }

    action gre_key_encap(bit<32> src, bit<32> dst, bit<32> key) {
        gre_encap(src, dst);
        hdr.outer_ipv4.total_len = hdr.outer_ipv4.total_len + 4;
        hdr.gre.key_present = 1;
        hdr.gre_key.setValid();
        hdr.gre_key.key = key;
    }

    action ipip_encap(bit<32> src, bit<32> dst) {
        outer_from_inner(src, dst, PROTO_IPIP, 0);
    }

    table tunnel_encap {
        key = {
            hdr.ipv4.dst_addr : lpm @name("inner_dst");
        }
        actions = {
            gre_encap;
            gre_key_encap;
            ipip_encap;
            @defaultonly NoAction;
        }
        const default_action = NoAction();
    }

    action route(bit<9> port, bit<48> dmac) {
        stdmeta.egress_spec = port;
        hdr.ethernet.src_addr = hdr.ethernet.dst_addr;
        hdr.ethernet.dst_addr = dmac;
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

    table outer_routes {
        key = {
            hdr.outer_ipv4.dst_addr : lpm @name("dst");
        }
        actions = {
            route;
            drop;
        }
        const default_action = drop();
    }

    apply {
        meta.decapped = false;
        if (!hdr.ipv4.isValid()) {
            drop();
            return;
        }
        if (hdr.outer_ipv4.isValid()) {
            tunnel_termination.apply();
            if (!meta.decapped) {
                // Not for a local endpoint: this router does not carry tunnels through.
                return;
            }
        }
        hdr.ipv4.ttl = hdr.ipv4.ttl - 1;
        if (!hdr.outer_ipv4.isValid() && !meta.decapped) {
            tunnel_encap.apply();
        }
        if (hdr.outer_ipv4.isValid()) {
            outer_routes.apply();
        } else {
            routes.apply();
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
        packet.emit(hdr.outer_ipv4);
        packet.emit(hdr.gre);
        packet.emit(hdr.gre_key);
        packet.emit(hdr.ipv4);
    }
}

V1Switch(ParserImpl(), VerifyChecksumImpl(), IngressImpl(), EgressImpl(),
         ComputeChecksumImpl(), DeparserImpl()) main;
