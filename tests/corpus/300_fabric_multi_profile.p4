// Corpus 300: a multi-profile leaf fabric in the style of ONOS fabric.p4: packet I/O with
// controller headers, VLAN filtering, a forwarding classifier, bridging/MPLS/IPv4 routing,
// a ternary ACL (punt, copy to CPU by clone, drop), next objectives (simple, hashed by an
// action selector, multicast), egress VLAN push/pop and MPLS push, port counters. Profiles
// are picked with #ifdef (WITH_PORT_COUNTER, WITH_IPV6 on; WITH_SPGW, WITH_INT and
// WITH_HASHED_NEXT, whose selector table p4c warns about on BMv2, off).
#include <core.p4>
#include <v1model.p4>

#ifndef _V1_MODEL_P4_
#error "this fabric needs the v1model architecture"
#endif

#define WITH_PORT_COUNTER
#define WITH_IPV6
// #define WITH_SPGW
// #define WITH_INT
// #define WITH_HASHED_NEXT

#ifdef __TARGET_BMV2__
#define CPU_PORT 255
#else
#define CPU_PORT 192
#endif

#define CPU_CLONE_SESSION_ID 511
#define DEFAULT_MPLS_TTL 64
#define MAX_PORTS 511
#define NEXT_TABLE_SIZE 1024

typedef bit<3>  fwd_type_t;
typedef bit<32> next_id_t;
typedef bit<20> mpls_label_t;
typedef bit<12> vlan_id_t;
typedef bit<9>  port_num_t;
typedef bit<48> mac_addr_t;
typedef bit<16> mcast_group_id_t;
typedef bit<32> ipv4_addr_t;
typedef bit<128> ipv6_addr_t;
typedef bit<16> l4_port_t;

const bit<16> ETHERTYPE_QINQ   = 0x88A8;
const bit<16> ETHERTYPE_VLAN   = 0x8100;
const bit<16> ETHERTYPE_MPLS   = 0x8847;
const bit<16> ETHERTYPE_IPV4   = 0x0800;
const bit<16> ETHERTYPE_IPV6   = 0x86DD;
const bit<16> ETHERTYPE_ARP    = 0x0806;

const bit<8> PROTO_ICMP   = 1;
const bit<8> PROTO_TCP    = 6;
const bit<8> PROTO_UDP    = 17;
const bit<8> PROTO_ICMPV6 = 58;

const fwd_type_t FWD_BRIDGING       = 0;
const fwd_type_t FWD_MPLS           = 1;
const fwd_type_t FWD_IPV4_UNICAST   = 2;
const fwd_type_t FWD_IPV4_MULTICAST = 3;
const fwd_type_t FWD_IPV6_UNICAST   = 4;
const fwd_type_t FWD_IPV6_MULTICAST = 5;

const vlan_id_t DEFAULT_VLAN_ID = 12w4094;

@controller_header("packet_in")
header packet_in_header_t {
    port_num_t ingress_port;
    bit<7>     _pad;
}

@controller_header("packet_out")
header packet_out_header_t {
    port_num_t egress_port;
    bit<7>     _pad;
}

header ethernet_t {
    mac_addr_t dst_addr;
    mac_addr_t src_addr;
    bit<16>    eth_type;
}

header vlan_tag_t {
    bit<3>    pri;
    bit<1>    cfi;
    vlan_id_t vlan_id;
    bit<16>   eth_type;
}

header mpls_t {
    mpls_label_t label;
    bit<3>       tc;
    bit<1>       bos;
    bit<8>       ttl;
}

header ipv4_t {
    bit<4>      version;
    bit<4>      ihl;
    bit<6>      dscp;
    bit<2>      ecn;
    bit<16>     total_len;
    bit<16>     identification;
    bit<3>      flags;
    bit<13>     frag_offset;
    bit<8>      ttl;
    bit<8>      protocol;
    bit<16>     hdr_checksum;
    ipv4_addr_t src_addr;
    ipv4_addr_t dst_addr;
}

header ipv6_t {
    bit<4>      version;
    bit<8>      traffic_class;
    bit<20>     flow_label;
    bit<16>     payload_len;
    bit<8>      next_hdr;
    bit<8>      hop_limit;
    ipv6_addr_t src_addr;
    ipv6_addr_t dst_addr;
}

header tcp_t {
    l4_port_t sport;
    l4_port_t dport;
    bit<32>   seq_no;
    bit<32>   ack_no;
    bit<4>    data_offset;
    bit<3>    res;
    bit<3>    ecn;
    bit<6>    ctrl;
    bit<16>   window;
    bit<16>   checksum;
    bit<16>   urgent_ptr;
}

header udp_t {
    l4_port_t sport;
    l4_port_t dport;
    bit<16>   len;
    bit<16>   checksum;
}

header icmp_t {
    bit<8>  icmp_type;
    bit<8>  icmp_code;
    bit<16> checksum;
}

#ifdef WITH_SPGW
header gtpu_t {
    bit<3>  version;
    bit<1>  pt;
    bit<1>  spare;
    bit<1>  ex_flag;
    bit<1>  seq_flag;
    bit<1>  npdu_flag;
    bit<8>  msgtype;
    bit<16> msglen;
    bit<32> teid;
}
#endif

struct fabric_metadata_t {
    bit<16>          ip_eth_type;
    vlan_id_t        vlan_id;
    bit<3>           vlan_pri;
    bit<1>           vlan_cfi;
    mpls_label_t     mpls_label;
    bit<8>           mpls_ttl;
    bool             skip_forwarding;
    bool             skip_next;
    fwd_type_t       fwd_type;
    next_id_t        next_id;
    bool             is_multicast;
    bool             is_controller_packet_out;
    bit<8>           ip_proto;
    l4_port_t        l4_sport;
    l4_port_t        l4_dport;
    @field_list(1)
    port_num_t       punt_ingress_port;
}

struct parsed_headers_t {
    packet_in_header_t  packet_in;
    packet_out_header_t packet_out;
    ethernet_t          ethernet;
    vlan_tag_t          vlan_tag;
    mpls_t              mpls;
    ipv4_t              ipv4;
#ifdef WITH_IPV6
    ipv6_t              ipv6;
#endif
#ifdef WITH_SPGW
    udp_t               gtpu_udp;
    gtpu_t              gtpu;
#endif
    tcp_t               tcp;
    udp_t               udp;
    icmp_t              icmp;
}

parser FabricParser(packet_in packet,
                    out parsed_headers_t hdr,
                    inout fabric_metadata_t fabric_metadata,
                    inout standard_metadata_t standard_metadata) {
    state start {
        transition select(standard_metadata.ingress_port) {
            CPU_PORT: parse_packet_out;
            default: parse_ethernet;
        }
    }

    state parse_packet_out {
        packet.extract(hdr.packet_out);
        transition parse_ethernet;
    }

    state parse_ethernet {
        packet.extract(hdr.ethernet);
        fabric_metadata.vlan_id = DEFAULT_VLAN_ID;
        transition select(hdr.ethernet.eth_type) {
            ETHERTYPE_VLAN: parse_vlan_tag;
            ETHERTYPE_MPLS: parse_mpls;
            ETHERTYPE_IPV4: pre_parse_ipv4;
#ifdef WITH_IPV6
            ETHERTYPE_IPV6: pre_parse_ipv6;
#endif
            default: accept;
        }
    }

    state parse_vlan_tag {
        packet.extract(hdr.vlan_tag);
        transition select(hdr.vlan_tag.eth_type) {
            ETHERTYPE_MPLS: parse_mpls;
            ETHERTYPE_IPV4: pre_parse_ipv4;
#ifdef WITH_IPV6
            ETHERTYPE_IPV6: pre_parse_ipv6;
#endif
            default: accept;
        }
    }

    state parse_mpls {
        packet.extract(hdr.mpls);
        fabric_metadata.mpls_label = hdr.mpls.label;
        fabric_metadata.mpls_ttl = hdr.mpls.ttl;
        // Only one label is supported: what follows is guessed from the version nibble.
        transition select(packet.lookahead<bit<4>>()) {
            4: pre_parse_ipv4;
#ifdef WITH_IPV6
            6: pre_parse_ipv6;
#endif
            default: accept;
        }
    }

    state pre_parse_ipv4 {
        fabric_metadata.ip_eth_type = ETHERTYPE_IPV4;
        transition parse_ipv4;
    }

    state parse_ipv4 {
        packet.extract(hdr.ipv4);
        fabric_metadata.ip_proto = hdr.ipv4.protocol;
        transition select(hdr.ipv4.protocol) {
            PROTO_TCP: parse_tcp;
            PROTO_UDP: parse_udp;
            PROTO_ICMP: parse_icmp;
            default: accept;
        }
    }

#ifdef WITH_IPV6
    state pre_parse_ipv6 {
        fabric_metadata.ip_eth_type = ETHERTYPE_IPV6;
        transition parse_ipv6;
    }

    state parse_ipv6 {
        packet.extract(hdr.ipv6);
        fabric_metadata.ip_proto = hdr.ipv6.next_hdr;
        transition select(hdr.ipv6.next_hdr) {
            PROTO_TCP: parse_tcp;
            PROTO_UDP: parse_udp;
            default: accept;
        }
    }
#endif

    state parse_tcp {
        packet.extract(hdr.tcp);
        fabric_metadata.l4_sport = hdr.tcp.sport;
        fabric_metadata.l4_dport = hdr.tcp.dport;
        transition accept;
    }

    state parse_udp {
        packet.extract(hdr.udp);
        fabric_metadata.l4_sport = hdr.udp.sport;
        fabric_metadata.l4_dport = hdr.udp.dport;
        transition accept;
    }

    state parse_icmp {
        packet.extract(hdr.icmp);
        transition accept;
    }
}

control PacketIoIngress(inout parsed_headers_t hdr,
                        inout fabric_metadata_t fabric_metadata,
                        inout standard_metadata_t standard_metadata) {
    apply {
        if (hdr.packet_out.isValid()) {
            standard_metadata.egress_spec = hdr.packet_out.egress_port;
            hdr.packet_out.setInvalid();
            fabric_metadata.is_controller_packet_out = true;
            // Straight to the port the controller asked for.
            exit;
        }
    }
}

control Filtering(inout parsed_headers_t hdr,
                  inout fabric_metadata_t fabric_metadata,
                  inout standard_metadata_t standard_metadata) {
    direct_counter(CounterType.packets_and_bytes) ingress_port_vlan_counter;

    action deny() {
        // Packets from unknown port/VLAN pairs skip forwarding and next, and are dropped.
        fabric_metadata.skip_forwarding = true;
        fabric_metadata.skip_next = true;
    }

    action permit() {
        // The VLAN of the tag (or the default one) is kept.
    }

    action permit_with_internal_vlan(vlan_id_t vlan_id) {
        fabric_metadata.vlan_id = vlan_id;
    }

    table ingress_port_vlan {
        key = {
            standard_metadata.ingress_port : exact   @name("ig_port");
            hdr.vlan_tag.isValid()         : exact   @name("vlan_is_valid");
            hdr.vlan_tag.vlan_id           : ternary @name("vlan_id");
        }
        actions = {
            deny();
            permit();
            permit_with_internal_vlan();
        }
        const default_action = deny();
        counters = ingress_port_vlan_counter;
        size = 1024;
    }

    direct_counter(CounterType.packets_and_bytes) fwd_classifier_counter;

    action set_forwarding_type(fwd_type_t fwd_type) {
        fabric_metadata.fwd_type = fwd_type;
    }

    table fwd_classifier {
        key = {
            standard_metadata.ingress_port : exact   @name("ig_port");
            hdr.ethernet.dst_addr          : ternary @name("eth_dst");
            fabric_metadata.ip_eth_type    : exact   @name("ip_eth_type");
        }
        actions = {
            set_forwarding_type;
        }
        const default_action = set_forwarding_type(FWD_BRIDGING);
        counters = fwd_classifier_counter;
        size = 1024;
    }

    apply {
        if (hdr.vlan_tag.isValid()) {
            fabric_metadata.vlan_id = hdr.vlan_tag.vlan_id;
            fabric_metadata.vlan_pri = hdr.vlan_tag.pri;
            fabric_metadata.vlan_cfi = hdr.vlan_tag.cfi;
        }
        if (!hdr.mpls.isValid()) {
            fabric_metadata.mpls_ttl = DEFAULT_MPLS_TTL + 1;
        }
        ingress_port_vlan.apply();
        if (hdr.vlan_tag.isValid()) {
            // The tag is carried in metadata from here; egress_vlan decides on the way out.
            hdr.ethernet.eth_type = hdr.vlan_tag.eth_type;
            hdr.vlan_tag.setInvalid();
        }
        fwd_classifier.apply();
    }
}

control Forwarding(inout parsed_headers_t hdr,
                   inout fabric_metadata_t fabric_metadata,
                   inout standard_metadata_t standard_metadata) {
    @hidden
    action set_next_id(next_id_t next_id) {
        fabric_metadata.next_id = next_id;
    }

    direct_counter(CounterType.packets_and_bytes) bridging_counter;

    action set_next_id_bridging(next_id_t next_id) {
        set_next_id(next_id);
    }

    table bridging {
        key = {
            fabric_metadata.vlan_id : exact   @name("vlan_id");
            hdr.ethernet.dst_addr   : ternary @name("eth_dst");
        }
        actions = {
            set_next_id_bridging;
            @defaultonly NoAction;
        }
        const default_action = NoAction();
        counters = bridging_counter;
        size = 1024;
    }

    direct_counter(CounterType.packets_and_bytes) mpls_counter;

    action pop_mpls_and_next(next_id_t next_id) {
        fabric_metadata.mpls_label = 0;
        set_next_id(next_id);
    }

    table mpls {
        key = {
            fabric_metadata.mpls_label : exact @name("mpls_label");
        }
        actions = {
            pop_mpls_and_next;
            @defaultonly NoAction;
        }
        const default_action = NoAction();
        counters = mpls_counter;
        size = 1024;
    }

    action set_next_id_routing_v4(next_id_t next_id) {
        set_next_id(next_id);
    }

    action nop_routing_v4() {
    }

    table routing_v4 {
        key = {
            hdr.ipv4.dst_addr : lpm @name("ipv4_dst");
        }
        actions = {
            set_next_id_routing_v4;
            nop_routing_v4;
            @defaultonly NoAction;
        }
        const default_action = NoAction();
        size = 1024;
    }

#ifdef WITH_IPV6
    action set_next_id_routing_v6(next_id_t next_id) {
        set_next_id(next_id);
    }

    table routing_v6 {
        key = {
            hdr.ipv6.dst_addr : lpm @name("ipv6_dst");
        }
        actions = {
            set_next_id_routing_v6;
            @defaultonly NoAction;
        }
        const default_action = NoAction();
        size = 1024;
    }
#endif

    apply {
        if (fabric_metadata.fwd_type == FWD_BRIDGING) {
            bridging.apply();
        } else if (fabric_metadata.fwd_type == FWD_MPLS) {
            mpls.apply();
        } else if (fabric_metadata.fwd_type == FWD_IPV4_UNICAST) {
            routing_v4.apply();
        }
#ifdef WITH_IPV6
        else if (fabric_metadata.fwd_type == FWD_IPV6_UNICAST) {
            routing_v6.apply();
        }
#endif
    }
}

control Acl(inout parsed_headers_t hdr,
            inout fabric_metadata_t fabric_metadata,
            inout standard_metadata_t standard_metadata) {
    direct_counter(CounterType.packets_and_bytes) acl_counter;

    action set_next_id_acl(next_id_t next_id) {
        fabric_metadata.next_id = next_id;
    }

    action punt_to_cpu() {
        standard_metadata.egress_spec = CPU_PORT;
        fabric_metadata.skip_next = true;
    }

    action copy_to_cpu() {
        fabric_metadata.punt_ingress_port = standard_metadata.ingress_port;
        clone_preserving_field_list(CloneType.I2E, CPU_CLONE_SESSION_ID, 1);
    }

    action drop() {
        mark_to_drop(standard_metadata);
        fabric_metadata.skip_next = true;
    }

    action nop_acl() {
    }

    table acl {
        key = {
            standard_metadata.ingress_port : ternary @name("ig_port");
            fabric_metadata.ip_proto       : ternary @name("ip_proto");
            fabric_metadata.l4_sport       : ternary @name("l4_sport");
            fabric_metadata.l4_dport       : ternary @name("l4_dport");
            hdr.ethernet.dst_addr          : ternary @name("eth_dst");
            hdr.ethernet.src_addr          : ternary @name("eth_src");
            fabric_metadata.vlan_id        : ternary @name("vlan_id");
            hdr.ethernet.eth_type          : ternary @name("eth_type");
            hdr.ipv4.src_addr              : ternary @name("ipv4_src");
            hdr.ipv4.dst_addr              : ternary @name("ipv4_dst");
            hdr.icmp.icmp_type             : ternary @name("icmp_type");
        }
        actions = {
            set_next_id_acl;
            punt_to_cpu;
            copy_to_cpu;
            drop;
            nop_acl;
        }
        const default_action = nop_acl();
        size = 1024;
        counters = acl_counter;
    }

    apply {
        acl.apply();
    }
}

control Next(inout parsed_headers_t hdr,
             inout fabric_metadata_t fabric_metadata,
             inout standard_metadata_t standard_metadata) {
    @hidden
    action output(port_num_t port_num) {
        standard_metadata.egress_spec = port_num;
    }

    @hidden
    action rewrite_smac(mac_addr_t smac) {
        hdr.ethernet.src_addr = smac;
    }

    @hidden
    action rewrite_dmac(mac_addr_t dmac) {
        hdr.ethernet.dst_addr = dmac;
    }

    @hidden
    action set_mpls_label(mpls_label_t label) {
        fabric_metadata.mpls_label = label;
    }

    @hidden
    action routing(port_num_t port_num, mac_addr_t smac, mac_addr_t dmac) {
        rewrite_smac(smac);
        rewrite_dmac(dmac);
        output(port_num);
    }

    direct_counter(CounterType.packets_and_bytes) next_vlan_counter;

    action set_vlan(vlan_id_t vlan_id) {
        fabric_metadata.vlan_id = vlan_id;
    }

    table next_vlan {
        key = {
            fabric_metadata.next_id : exact @name("next_id");
        }
        actions = {
            set_vlan;
            @defaultonly NoAction;
        }
        const default_action = NoAction();
        counters = next_vlan_counter;
        size = NEXT_TABLE_SIZE;
    }

    direct_counter(CounterType.packets_and_bytes) simple_counter;

    action output_simple(port_num_t port_num) {
        output(port_num);
    }

    action routing_simple(port_num_t port_num, mac_addr_t smac, mac_addr_t dmac) {
        routing(port_num, smac, dmac);
    }

    action mpls_routing_simple(port_num_t port_num, mac_addr_t smac, mac_addr_t dmac,
                               mpls_label_t label) {
        set_mpls_label(label);
        routing(port_num, smac, dmac);
    }

    table simple {
        key = {
            fabric_metadata.next_id : exact @name("next_id");
        }
        actions = {
            output_simple;
            routing_simple;
            mpls_routing_simple;
            @defaultonly NoAction;
        }
        const default_action = NoAction();
        counters = simple_counter;
        size = NEXT_TABLE_SIZE;
    }

#ifdef WITH_HASHED_NEXT
    // p4c warns that BMv2 tables with a selector take no default_action: off here.
    action_selector(HashAlgorithm.crc16, 32w1024, 32w16) hashed_selector;

    action output_hashed(port_num_t port_num) {
        output(port_num);
    }

    action routing_hashed(port_num_t port_num, mac_addr_t smac, mac_addr_t dmac) {
        routing(port_num, smac, dmac);
    }

    table hashed {
        key = {
            fabric_metadata.next_id  : exact @name("next_id");
            hdr.ipv4.dst_addr        : selector;
            hdr.ipv4.src_addr        : selector;
            fabric_metadata.ip_proto : selector;
            fabric_metadata.l4_sport : selector;
            fabric_metadata.l4_dport : selector;
        }
        actions = {
            output_hashed;
            routing_hashed;
        }
        implementation = hashed_selector;
        size = NEXT_TABLE_SIZE;
    }

#endif

    direct_counter(CounterType.packets_and_bytes) multicast_counter;

    action set_mcast_group_id(mcast_group_id_t group_id) {
        standard_metadata.mcast_grp = group_id;
        fabric_metadata.is_multicast = true;
    }

    table multicast {
        key = {
            fabric_metadata.next_id : exact @name("next_id");
        }
        actions = {
            set_mcast_group_id;
            @defaultonly NoAction;
        }
        const default_action = NoAction();
        counters = multicast_counter;
        size = NEXT_TABLE_SIZE;
    }

    apply {
        if (!simple.apply().hit) {
#ifdef WITH_HASHED_NEXT
            if (!hashed.apply().hit) {
                multicast.apply();
            }
#else
            multicast.apply();
#endif
        }
        next_vlan.apply();
        if (hdr.ipv4.isValid() && fabric_metadata.fwd_type == FWD_IPV4_UNICAST) {
            hdr.ipv4.ttl = hdr.ipv4.ttl - 1;
        }
    }
}

#ifdef WITH_PORT_COUNTER
control PortCountersControl(inout parsed_headers_t hdr,
                            inout fabric_metadata_t fabric_metadata,
                            inout standard_metadata_t standard_metadata) {
    counter(MAX_PORTS, CounterType.packets_and_bytes) egress_port_counter;
    counter(MAX_PORTS, CounterType.packets_and_bytes) ingress_port_counter;

    apply {
        if (standard_metadata.egress_spec < MAX_PORTS) {
            egress_port_counter.count((bit<32>) standard_metadata.egress_spec);
        }
        if (standard_metadata.ingress_port < MAX_PORTS) {
            ingress_port_counter.count((bit<32>) standard_metadata.ingress_port);
        }
    }
}
#endif

control FabricVerifyChecksum(inout parsed_headers_t hdr,
                             inout fabric_metadata_t meta) {
    apply {
        verify_checksum(hdr.ipv4.isValid(),
            { hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.dscp, hdr.ipv4.ecn,
              hdr.ipv4.total_len, hdr.ipv4.identification, hdr.ipv4.flags,
              hdr.ipv4.frag_offset, hdr.ipv4.ttl, hdr.ipv4.protocol,
              hdr.ipv4.src_addr, hdr.ipv4.dst_addr },
            hdr.ipv4.hdr_checksum, HashAlgorithm.csum16);
    }
}

control FabricIngress(inout parsed_headers_t hdr,
                      inout fabric_metadata_t fabric_metadata,
                      inout standard_metadata_t standard_metadata) {
    PacketIoIngress() pkt_io_ingress;
    Filtering() filtering;
    Forwarding() forwarding;
    Acl() acl;
    Next() next;
#ifdef WITH_PORT_COUNTER
    PortCountersControl() port_counters_control;
#endif

    apply {
        pkt_io_ingress.apply(hdr, fabric_metadata, standard_metadata);
        filtering.apply(hdr, fabric_metadata, standard_metadata);
        if (!fabric_metadata.skip_forwarding) {
            forwarding.apply(hdr, fabric_metadata, standard_metadata);
        }
        acl.apply(hdr, fabric_metadata, standard_metadata);
        if (!fabric_metadata.skip_next) {
            next.apply(hdr, fabric_metadata, standard_metadata);
        }
#ifdef WITH_PORT_COUNTER
        port_counters_control.apply(hdr, fabric_metadata, standard_metadata);
#endif
        if (fabric_metadata.skip_forwarding) {
            mark_to_drop(standard_metadata);
        }
    }
}

control PacketIoEgress(inout parsed_headers_t hdr,
                       inout fabric_metadata_t fabric_metadata,
                       inout standard_metadata_t standard_metadata) {
    apply {
        if (fabric_metadata.is_controller_packet_out) {
            // Packet-outs leave as the controller built them.
            exit;
        }
        if (standard_metadata.egress_port == CPU_PORT) {
            hdr.packet_in.setValid();
            if (standard_metadata.instance_type == 1) {
                hdr.packet_in.ingress_port = fabric_metadata.punt_ingress_port;
            } else {
                hdr.packet_in.ingress_port = standard_metadata.ingress_port;
            }
            hdr.packet_in._pad = 0;
            exit;
        }
    }
}

control EgressNextControl(inout parsed_headers_t hdr,
                          inout fabric_metadata_t fabric_metadata,
                          inout standard_metadata_t standard_metadata) {
    @hidden
    action pop_mpls_if_present() {
        hdr.mpls.setInvalid();
        hdr.ethernet.eth_type = fabric_metadata.ip_eth_type;
    }

    @hidden
    action set_mpls() {
        hdr.mpls.setValid();
        hdr.mpls.label = fabric_metadata.mpls_label;
        hdr.mpls.tc = 3w0;
        hdr.mpls.bos = 1w1;
        hdr.mpls.ttl = fabric_metadata.mpls_ttl;
        hdr.ethernet.eth_type = ETHERTYPE_MPLS;
    }

    @hidden
    action push_outer_vlan() {
        hdr.vlan_tag.setValid();
        hdr.vlan_tag.pri = fabric_metadata.vlan_pri;
        hdr.vlan_tag.cfi = fabric_metadata.vlan_cfi;
        hdr.vlan_tag.vlan_id = fabric_metadata.vlan_id;
        hdr.vlan_tag.eth_type = hdr.ethernet.eth_type;
        hdr.ethernet.eth_type = ETHERTYPE_VLAN;
    }

    direct_counter(CounterType.packets_and_bytes) egress_vlan_counter;

    action push_vlan() {
        push_outer_vlan();
    }

    action pop_vlan() {
        // Filtering already took the tag off: leave untagged.
        hdr.vlan_tag.setInvalid();
    }

    action drop() {
        mark_to_drop(standard_metadata);
    }

    table egress_vlan {
        key = {
            fabric_metadata.vlan_id        : exact @name("vlan_id");
            standard_metadata.egress_port  : exact @name("eg_port");
        }
        actions = {
            push_vlan;
            pop_vlan;
            @defaultonly drop;
        }
        const default_action = drop();
        counters = egress_vlan_counter;
        size = 1024;
    }

    apply {
        if (fabric_metadata.is_multicast && standard_metadata.ingress_port == standard_metadata.egress_port) {
            // No reflection of flooded packets.
            mark_to_drop(standard_metadata);
        }
        if (fabric_metadata.mpls_label == 0) {
            if (hdr.mpls.isValid()) {
                pop_mpls_if_present();
            }
        } else {
            set_mpls();
        }
        egress_vlan.apply();
        if (hdr.mpls.isValid()) {
            hdr.mpls.ttl = hdr.mpls.ttl - 1;
            if (hdr.mpls.ttl == 0) {
                mark_to_drop(standard_metadata);
            }
        } else if (hdr.ipv4.isValid() && fabric_metadata.fwd_type != FWD_BRIDGING) {
            if (hdr.ipv4.ttl == 0) {
                mark_to_drop(standard_metadata);
            }
        }
    }
}

control FabricEgress(inout parsed_headers_t hdr,
                     inout fabric_metadata_t fabric_metadata,
                     inout standard_metadata_t standard_metadata) {
    PacketIoEgress() pkt_io_egress;
    EgressNextControl() egress_next;

    apply {
        pkt_io_egress.apply(hdr, fabric_metadata, standard_metadata);
        egress_next.apply(hdr, fabric_metadata, standard_metadata);
    }
}

control FabricComputeChecksum(inout parsed_headers_t hdr,
                              inout fabric_metadata_t meta) {
    apply {
        update_checksum(hdr.ipv4.isValid(),
            { hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.dscp, hdr.ipv4.ecn,
              hdr.ipv4.total_len, hdr.ipv4.identification, hdr.ipv4.flags,
              hdr.ipv4.frag_offset, hdr.ipv4.ttl, hdr.ipv4.protocol,
              hdr.ipv4.src_addr, hdr.ipv4.dst_addr },
            hdr.ipv4.hdr_checksum, HashAlgorithm.csum16);
    }
}

control FabricDeparser(packet_out packet, in parsed_headers_t hdr) {
    apply {
        packet.emit(hdr.packet_in);
        packet.emit(hdr.ethernet);
        packet.emit(hdr.vlan_tag);
        packet.emit(hdr.mpls);
        packet.emit(hdr.ipv4);
#ifdef WITH_IPV6
        packet.emit(hdr.ipv6);
#endif
        packet.emit(hdr.tcp);
        packet.emit(hdr.udp);
        packet.emit(hdr.icmp);
    }
}

V1Switch(
    FabricParser(),
    FabricVerifyChecksum(),
    FabricIngress(),
    FabricEgress(),
    FabricComputeChecksum(),
    FabricDeparser()
) main;
