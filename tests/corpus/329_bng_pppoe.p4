// Corpus 329: a broadband network gateway in the style of fabric-tna's BNG profile:
// double-tagged (S-VLAN, C-VLAN) subscriber lines mapped to a line id, PPPoE session
// frames terminated upstream (PPPoE and both tags removed, counted per line), control
// frames (PPPoE discovery, LCP) punted to the CPU, and downstream IPv4 encapsulated in
// PPPoE with the line's session id and tags; per-line counters both ways.
#include <core.p4>
#include <v1model.p4>

#define CPU_PORT 255
#define MAX_LINES 256

const bit<16> ETHERTYPE_QINQ = 0x88A8;
const bit<16> ETHERTYPE_VLAN = 0x8100;
const bit<16> ETHERTYPE_IPV4 = 0x0800;
const bit<16> ETHERTYPE_PPPOED = 0x8863;
const bit<16> ETHERTYPE_PPPOES = 0x8864;
const bit<16> PPP_PROTOCOL_IPV4 = 0x0021;

typedef bit<32> line_id_t;

header ethernet_t {
    bit<48> dst_addr;
    bit<48> src_addr;
    bit<16> ether_type;
}

header vlan_t {
    bit<3>  pri;
    bit<1>  cfi;
    bit<12> vid;
    bit<16> ether_type;
}

header pppoe_t {
    bit<4>  version;
    bit<4>  type_id;
    bit<8>  code;
    bit<16> session_id;
    bit<16> length;
    bit<16> protocol;
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

struct headers_t {
    ethernet_t ethernet;
    vlan_t     s_tag;
    vlan_t     c_tag;
    pppoe_t    pppoe;
    ipv4_t     ipv4;
}

struct bng_meta_t {
    line_id_t line_id;
    bit<16>   pppoe_session_id;
    bit<12>   s_tag;
    bit<12>   c_tag;
    bool      upstream;
}

struct metadata_t {
    bng_meta_t bng;
}

parser ParserImpl(packet_in packet, out headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t stdmeta) {
    state start {
        packet.extract(hdr.ethernet);
        transition select(hdr.ethernet.ether_type) {
            ETHERTYPE_QINQ: parse_s_tag;
            ETHERTYPE_IPV4: parse_ipv4;
            default: accept;
        }
    }

    state parse_s_tag {
        packet.extract(hdr.s_tag);
        transition select(hdr.s_tag.ether_type) {
            ETHERTYPE_VLAN: parse_c_tag;
            default: accept;
        }
    }

    state parse_c_tag {
        packet.extract(hdr.c_tag);
        transition select(hdr.c_tag.ether_type) {
            ETHERTYPE_PPPOED: parse_pppoe;
            ETHERTYPE_PPPOES: parse_pppoe;
            default: accept;
        }
    }

    state parse_pppoe {
        packet.extract(hdr.pppoe);
        transition select(hdr.pppoe.protocol) {
            PPP_PROTOCOL_IPV4: parse_ipv4;
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

control BngUpstream(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t stdmeta) {
    counter(MAX_LINES, CounterType.packets_and_bytes) c_terminated;
    counter(MAX_LINES, CounterType.packets) c_control;

    action punt_to_cpu() {
        stdmeta.egress_spec = CPU_PORT;
        c_control.count(meta.bng.line_id);
    }

    table t_pppoe_cp {
        key = {
            hdr.c_tag.ether_type : exact @name("eth_type");
            hdr.pppoe.code       : ternary @name("pppoe_code");
            hdr.pppoe.protocol   : ternary @name("pppoe_protocol");
        }
        actions = {
            punt_to_cpu;
            @defaultonly NoAction;
        }
        const default_action = NoAction();
    }

    action term_enabled() {
        hdr.ethernet.ether_type = ETHERTYPE_IPV4;
        hdr.s_tag.setInvalid();
        hdr.c_tag.setInvalid();
        hdr.pppoe.setInvalid();
        c_terminated.count(meta.bng.line_id);
    }

    action term_disabled() {
        mark_to_drop(stdmeta);
    }

    table t_pppoe_term_v4 {
        key = {
            meta.bng.line_id        : exact @name("line_id");
            hdr.ipv4.src_addr       : exact @name("ipv4_src");
            hdr.pppoe.session_id    : exact @name("pppoe_session_id");
        }
        actions = {
            term_enabled;
            @defaultonly term_disabled;
        }
        const default_action = term_disabled();
    }

    apply {
        if (hdr.pppoe.isValid() && hdr.ipv4.isValid() &&
            hdr.c_tag.ether_type == ETHERTYPE_PPPOES) {
            t_pppoe_term_v4.apply();
        } else if (!t_pppoe_cp.apply().hit) {
            mark_to_drop(stdmeta);
        }
    }
}

control BngDownstream(inout headers_t hdr, inout metadata_t meta,
                      inout standard_metadata_t stdmeta) {
    counter(MAX_LINES, CounterType.packets_and_bytes) c_line_tx;

    action set_session(bit<16> pppoe_session_id, bit<12> s_tag, bit<12> c_tag,
                       bit<9> port) {
        meta.bng.pppoe_session_id = pppoe_session_id;
        meta.bng.s_tag = s_tag;
        meta.bng.c_tag = c_tag;
        stdmeta.egress_spec = port;
    }

    action drop() {
        mark_to_drop(stdmeta);
    }

    table t_line_session_map {
        key = {
            hdr.ipv4.dst_addr : exact @name("ipv4_dst");
        }
        actions = {
            set_session;
            @defaultonly drop;
        }
        const default_action = drop();
    }

    apply {
        if (t_line_session_map.apply().hit) {
            hdr.s_tag.setValid();
            hdr.s_tag.pri = 0;
            hdr.s_tag.cfi = 0;
            hdr.s_tag.vid = meta.bng.s_tag;
            hdr.s_tag.ether_type = ETHERTYPE_VLAN;
            hdr.c_tag.setValid();
            hdr.c_tag.pri = 0;
            hdr.c_tag.cfi = 0;
            hdr.c_tag.vid = meta.bng.c_tag;
            hdr.c_tag.ether_type = ETHERTYPE_PPPOES;
            hdr.pppoe.setValid();
            hdr.pppoe.version = 1;
            hdr.pppoe.type_id = 1;
            hdr.pppoe.code = 0;
            hdr.pppoe.session_id = meta.bng.pppoe_session_id;
            // The PPP protocol field counts in the PPPoE payload length.
            hdr.pppoe.length = hdr.ipv4.total_len + 16w2;
            hdr.pppoe.protocol = PPP_PROTOCOL_IPV4;
            hdr.ethernet.ether_type = ETHERTYPE_QINQ;
            hdr.ipv4.ttl = hdr.ipv4.ttl - 1;
            c_line_tx.count((bit<32>) meta.bng.c_tag);
        }
    }
}

control IngressImpl(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t stdmeta) {
    BngUpstream() upstream;
    BngDownstream() downstream;

    action set_line(line_id_t line_id) {
        meta.bng.line_id = line_id;
        meta.bng.upstream = true;
    }

    table t_line_map {
        key = {
            hdr.s_tag.vid : exact @name("s_tag");
            hdr.c_tag.vid : exact @name("c_tag");
        }
        actions = {
            set_line;
            @defaultonly NoAction;
        }
        const default_action = NoAction();
    }

    action route(bit<9> port, bit<48> smac, bit<48> dmac) {
        stdmeta.egress_spec = port;
        hdr.ethernet.src_addr = smac;
        hdr.ethernet.dst_addr = dmac;
    }

    table t_core_routes {
        key = {
            hdr.ipv4.dst_addr : lpm @name("dst");
        }
        actions = {
            route;
            @defaultonly NoAction;
        }
        const default_action = NoAction();
    }

    apply {
        meta.bng.upstream = false;
        meta.bng.line_id = 0;
        if (hdr.s_tag.isValid() && hdr.c_tag.isValid()) {
            t_line_map.apply();
        }
        if (meta.bng.upstream) {
            upstream.apply(hdr, meta, stdmeta);
            if (hdr.ipv4.isValid() && !hdr.pppoe.isValid()) {
                hdr.ipv4.ttl = hdr.ipv4.ttl - 1;
                t_core_routes.apply();
            }
        } else if (hdr.ipv4.isValid() && !hdr.s_tag.isValid()) {
            downstream.apply(hdr, meta, stdmeta);
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
            { hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.diffserv, hdr.ipv4.total_len,
              hdr.ipv4.identification, hdr.ipv4.flags, hdr.ipv4.frag_offset,
              hdr.ipv4.ttl, hdr.ipv4.protocol, hdr.ipv4.src_addr, hdr.ipv4.dst_addr },
            hdr.ipv4.hdr_checksum, HashAlgorithm.csum16);
    }
}

control DeparserImpl(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.s_tag);
        packet.emit(hdr.c_tag);
        packet.emit(hdr.pppoe);
        packet.emit(hdr.ipv4);
    }
}

V1Switch(ParserImpl(), VerifyChecksumImpl(), IngressImpl(), EgressImpl(),
         ComputeChecksumImpl(), DeparserImpl()) main;
