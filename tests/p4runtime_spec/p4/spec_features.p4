// One v1model program with an object of every kind the P4Runtime conformance suite
// (tests/p4runtime_spec/) exercises: tables of each match kind, a const table, an
// action profile and an action selector, indirect and direct counters and meters, a
// register, a parser value set, a digest, an idle-timeout table, clone and multicast
// actions, and the packet_in / packet_out controller headers.
//
// Forwarding: a PacketOut goes to its egress_port as is.  Otherwise the EtherType
// picks what the suite wants to see:
//   0x88B5  digest of (src_addr, ingress_port), then dropped
//   0x88B6  punted to the CPU port (PacketIn with ingress_port)
//   0x88B7  multicast to the group in the last byte of dst_addr
//   0x88B8  sent to port 1 and cloned to session 5 (I2E)
//   other   the tables decide (t_exact on dst_addr first).
#include <core.p4>
#include <v1model.p4>

const bit<9> CPU_PORT = 255;

@controller_header("packet_in")
header packet_in_t {
    bit<9> ingress_port;
    bit<7> _pad;
}

@controller_header("packet_out")
header packet_out_t {
    bit<9> egress_port;
    bit<7> _pad;
}

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

struct headers_t {
    packet_out_t packet_out;
    packet_in_t  packet_in;
    ethernet_t   ethernet;
    ipv4_t       ipv4;
}

struct learn_t {
    bit<48> src_addr;
    bit<9>  ingress_port;
}

struct metadata_t {
    bit<1> special;
}

parser SpecParser(packet_in pkt, out headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t smeta) {
    value_set<bit<16>>(4) special_types;

    state start {
        transition select(smeta.ingress_port) {
            CPU_PORT: parse_packet_out;
            default: parse_ethernet;
        }
    }
    state parse_packet_out {
        pkt.extract(hdr.packet_out);
        transition parse_ethernet;
    }
    state parse_ethernet {
        pkt.extract(hdr.ethernet);
        transition select(hdr.ethernet.ether_type) {
            0x0800: parse_ipv4;
            special_types: mark_special;
            default: accept;
        }
    }
    state mark_special {
        meta.special = 1;
        transition accept;
    }
    state parse_ipv4 {
        pkt.extract(hdr.ipv4);
        transition accept;
    }
}

control SpecVerify(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control SpecIngress(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t smeta) {
    counter(64, CounterType.packets_and_bytes) port_counter;
    meter(16, MeterType.packets) port_meter;
    register<bit<32>>(16) scratch;
    direct_counter(CounterType.packets_and_bytes) exact_hits;
    direct_meter<bit<2>>(MeterType.bytes) lpm_meter;
    bit<2> color = 0;

    action drop() {
        mark_to_drop(smeta);
    }
    action set_port(bit<9> port) {
        smeta.egress_spec = port;
    }
    action set_port_counted(bit<9> port) {
        smeta.egress_spec = port;
        exact_hits.count();
    }
    action set_port_metered(bit<9> port) {
        smeta.egress_spec = port;
        lpm_meter.read(color);
    }
    action rewrite_src(bit<48> src_addr) {
        hdr.ethernet.src_addr = src_addr;
    }
    @defaultonly action miss_to_port(bit<9> port) {
        smeta.egress_spec = port;
    }
    action count_and_mark(bit<32> value) {
        port_counter.count((bit<32>) smeta.ingress_port);
        port_meter.execute_meter((bit<32>) smeta.ingress_port, color);
        scratch.write((bit<32>) smeta.ingress_port, value);
    }

    table t_exact {
        key = { hdr.ethernet.dst_addr: exact; }
        actions = { set_port_counted; drop; @defaultonly NoAction; }
        counters = exact_hits;
        default_action = NoAction();
        size = 64;
    }
    table t_lpm {
        key = { hdr.ipv4.dst_addr: lpm; }
        actions = { set_port_metered; @tableonly drop; @defaultonly miss_to_port; }
        meters = lpm_meter;
        default_action = miss_to_port(0);
        size = 64;
    }
    table t_ternary {
        key = { hdr.ipv4.src_addr: ternary; hdr.ipv4.protocol: exact; }
        actions = { set_port; drop; NoAction; }
        default_action = NoAction();
        size = 64;
    }
    table t_range {
        key = { hdr.ipv4.ttl: range; }
        actions = { set_port; NoAction; }
        default_action = NoAction();
        size = 64;
    }
    table t_optional {
        key = { hdr.ipv4.protocol: optional; hdr.ipv4.diffserv: exact; }
        actions = { count_and_mark; NoAction; }
        default_action = NoAction();
        size = 64;
    }
    table t_const {
        key = { hdr.ethernet.ether_type: exact; }
        actions = { set_port; NoAction; }
        const entries = {
            0x9000: set_port(2);
            0x9001: set_port(1);
        }
        default_action = NoAction();
        size = 4;
    }
    table t_profile {
        key = { hdr.ethernet.src_addr: exact; }
        actions = { rewrite_src; NoAction; }
        @name("t_profile_implementation") implementation = action_profile(32w16);
        size = 16;
    }
    table t_selector {
        key = { hdr.ipv4.dst_addr: exact; hdr.ipv4.src_addr: selector; }
        actions = { set_port; NoAction; }
        @name("t_selector_implementation")
        implementation = action_selector(HashAlgorithm.crc16, 32w32, 32w16);
        size = 16;
    }
    table t_idle {
        key = { hdr.ethernet.src_addr: exact; }
        actions = { NoAction; }
        support_timeout = true;
        default_action = NoAction();
        size = 16;
    }

    apply {
        if (hdr.packet_out.isValid()) {
            smeta.egress_spec = hdr.packet_out.egress_port;
            hdr.packet_out.setInvalid();
            exit;
        }
        if (hdr.ethernet.ether_type == 0x88B5) {
            digest<learn_t>(1, { hdr.ethernet.src_addr, smeta.ingress_port });
            mark_to_drop(smeta);
            exit;
        }
        if (hdr.ethernet.ether_type == 0x88B6) {
            smeta.egress_spec = CPU_PORT;
            exit;
        }
        if (hdr.ethernet.ether_type == 0x88B7) {
            smeta.mcast_grp = (bit<16>) hdr.ethernet.dst_addr[7:0];
            exit;
        }
        if (hdr.ethernet.ether_type == 0x88B8) {
            smeta.egress_spec = 1;
            clone(CloneType.I2E, 32w5);
            exit;
        }
        t_idle.apply();
        t_profile.apply();
        t_const.apply();
        if (!t_exact.apply().hit) {
            if (hdr.ipv4.isValid()) {
                t_lpm.apply();
                t_ternary.apply();
                t_range.apply();
                t_optional.apply();
                t_selector.apply();
            }
        }
        if (meta.special == 1) {
            smeta.egress_spec = 2;
        }
    }
}

control SpecEgress(inout headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t smeta) {
    apply {
        if (smeta.egress_port == CPU_PORT) {
            hdr.packet_in.setValid();
            hdr.packet_in.ingress_port = smeta.ingress_port;
            hdr.packet_in._pad = 0;
        }
    }
}

control SpecCompute(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control SpecDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.packet_in);
        pkt.emit(hdr.ethernet);
        pkt.emit(hdr.ipv4);
    }
}

V1Switch(SpecParser(), SpecVerify(), SpecIngress(), SpecEgress(), SpecCompute(),
         SpecDeparser()) main;
