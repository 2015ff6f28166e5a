// Corpus 301: a SAI-style middleblock router in the manner of SONiC PINS: @sai_* and @id
// annotations, @entry_restriction constraints in multi-line strings, @refers_to between
// tables, `type` ids (some with @p4runtime_translation to string or bit<16>), packet I/O
// with typed controller-header fields, pre-ingress ACL setting the VRF, L3 admit, VRF
// routing through nexthop, router interface and neighbor tables, an ingress ACL with
// optional keys (trap, drop, forward, copy and mirror), clone to CPU and TTL handling.
#include <core.p4>
#include <v1model.p4>

#define SAI_CPU_PORT 510
#define SAI_COPY_TO_CPU_SESSION 1024
#define SAI_ROUTE_METADATA_DEFAULT 0

// Ids the controller knows by name are new types; two are translated for it.
type bit<9>  port_id_t;
type bit<10> vrf_id_t;
type bit<10> nexthop_id_t;
type bit<10> router_interface_id_t;
type bit<32> neighbor_id_t;
@p4runtime_translation("", string)
type bit<8>  qos_queue_t;
@p4runtime_translation("sai.mirror_session", bit<16>)
type bit<10> mirror_session_id_t;

typedef bit<48> ethernet_addr_t;
typedef bit<32> ipv4_addr_t;
typedef bit<128> ipv6_addr_t;
typedef bit<6>  route_metadata_t;

const vrf_id_t kDefaultVrf = (vrf_id_t) 10w0;
const bit<16> ETHERTYPE_IPV4 = 0x0800;
const bit<16> ETHERTYPE_IPV6 = 0x86dd;
const bit<16> ETHERTYPE_ARP  = 0x0806;
const bit<8>  IP_PROTOCOL_TCP = 6;
const bit<8>  IP_PROTOCOL_UDP = 17;
const bit<8>  IP_PROTOCOL_ICMP = 1;

@controller_header("packet_in")
header packet_in_header_t {
    @id(1) port_id_t ingress_port;
    @id(2) port_id_t target_egress_port;
    bit<6> unused_pad;
}

@controller_header("packet_out")
header packet_out_header_t {
    @id(1) port_id_t egress_port;
    @id(2) bit<1>    submit_to_ingress;
    @id(3) bit<6>    unused_pad;
}

header ethernet_t {
    ethernet_addr_t dst_addr;
    ethernet_addr_t src_addr;
    bit<16>         ether_type;
}

header ipv4_t {
    bit<4>      version;
    bit<4>      ihl;
    bit<6>      dscp;
    bit<2>      ecn;
    bit<16>     total_len;
    bit<16>     identification;
    bit<1>      reserved;
    bit<1>      do_not_fragment;
    bit<1>      more_fragments;
    bit<13>     frag_offset;
    bit<8>      ttl;
    bit<8>      protocol;
    bit<16>     header_checksum;
    ipv4_addr_t src_addr;
    ipv4_addr_t dst_addr;
}

header ipv6_t {
    bit<4>      version;
    bit<6>      dscp;
    bit<2>      ecn;
    bit<20>     flow_label;
    bit<16>     payload_length;
    bit<8>      next_header;
    bit<8>      hop_limit;
    ipv6_addr_t src_addr;
    ipv6_addr_t dst_addr;
}

header udp_t {
    bit<16> src_port;
    bit<16> dst_port;
    bit<16> hdr_length;
    bit<16> checksum;
}

header tcp_t {
    bit<16> src_port;
    bit<16> dst_port;
    bit<32> seq_no;
    bit<32> ack_no;
    bit<4>  data_offset;
    bit<4>  res;
    bit<8>  flags;
    bit<16> window;
    bit<16> checksum;
    bit<16> urgent_ptr;
}

header icmp_t {
    bit<8>  type;
    bit<8>  code;
    bit<16> checksum;
}

header arp_t {
    bit<16> hw_type;
    bit<16> proto_type;
    bit<8>  hw_addr_len;
    bit<8>  proto_addr_len;
    bit<16> opcode;
    bit<48> sender_hw_addr;
    bit<32> sender_proto_addr;
    bit<48> target_hw_addr;
    bit<32> target_proto_addr;
}

struct headers_t {
    packet_in_header_t  packet_in_header;
    packet_out_header_t packet_out_header;
    ethernet_t          ethernet;
    ipv4_t              ipv4;
    ipv6_t              ipv6;
    arp_t               arp;
    icmp_t              icmp;
    tcp_t               tcp;
    udp_t               udp;
}

struct packet_rewrites_t {
    ethernet_addr_t src_mac;
    ethernet_addr_t dst_mac;
}

struct local_metadata_t {
    bool                  admit_to_l3;
    vrf_id_t              vrf_id;
    bool                  nexthop_id_valid;
    nexthop_id_t          nexthop_id_value;
    router_interface_id_t router_interface_id;
    neighbor_id_t         neighbor_id;
    packet_rewrites_t     packet_rewrites;
    bit<16>               l4_src_port;
    bit<16>               l4_dst_port;
    bool                  marked_to_copy;
    bool                  marked_to_mirror;
    mirror_session_id_t   mirror_session_id;
    route_metadata_t      route_metadata;
    bool                  bypass_ingress;
    @field_list(SAI_ROUTE_METADATA_DEFAULT)
    port_id_t             ingress_port;
}

parser packet_parser(packet_in packet, out headers_t headers,
                     inout local_metadata_t local_metadata,
                     inout standard_metadata_t standard_metadata) {
    state start {
        local_metadata.admit_to_l3 = false;
        local_metadata.vrf_id = kDefaultVrf;
        local_metadata.nexthop_id_valid = false;
        local_metadata.marked_to_copy = false;
        local_metadata.marked_to_mirror = false;
        local_metadata.bypass_ingress = false;
        local_metadata.l4_src_port = 0;
        local_metadata.l4_dst_port = 0;
        local_metadata.route_metadata = 0;
        local_metadata.ingress_port = (port_id_t) standard_metadata.ingress_port;
        transition select(standard_metadata.ingress_port) {
            SAI_CPU_PORT: parse_packet_out_header;
            default: parse_ethernet;
        }
    }

    state parse_packet_out_header {
        packet.extract(headers.packet_out_header);
        transition parse_ethernet;
    }

    state parse_ethernet {
        packet.extract(headers.ethernet);
        transition select(headers.ethernet.ether_type) {
            ETHERTYPE_IPV4: parse_ipv4;
            ETHERTYPE_IPV6: parse_ipv6;
            ETHERTYPE_ARP:  parse_arp;
            default:        accept;
        }
    }

    state parse_ipv4 {
        packet.extract(headers.ipv4);
        transition select(headers.ipv4.protocol) {
            IP_PROTOCOL_ICMP: parse_icmp;
            IP_PROTOCOL_TCP:  parse_tcp;
            IP_PROTOCOL_UDP:  parse_udp;
            default:          accept;
        }
    }

    state parse_ipv6 {
        packet.extract(headers.ipv6);
        transition select(headers.ipv6.next_header) {
            IP_PROTOCOL_TCP: parse_tcp;
            IP_PROTOCOL_UDP: parse_udp;
            default:         accept;
        }
    }

    state parse_arp {
        packet.extract(headers.arp);
        transition accept;
    }

    state parse_icmp {
        packet.extract(headers.icmp);
        transition accept;
    }

    state parse_tcp {
        packet.extract(headers.tcp);
        local_metadata.l4_src_port = headers.tcp.src_port;
        local_metadata.l4_dst_port = headers.tcp.dst_port;
        transition accept;
    }

    state parse_udp {
        packet.extract(headers.udp);
        local_metadata.l4_src_port = headers.udp.src_port;
        local_metadata.l4_dst_port = headers.udp.dst_port;
        transition accept;
    }
}

control packet_out_decap(inout headers_t headers,
                         inout local_metadata_t local_metadata,
                         inout standard_metadata_t standard_metadata) {
    apply {
        if (headers.packet_out_header.isValid() &&
            headers.packet_out_header.submit_to_ingress == 0) {
            standard_metadata.egress_spec = (bit<9>) headers.packet_out_header.egress_port;
            local_metadata.bypass_ingress = true;
        }
        headers.packet_out_header.setInvalid();
    }
}

control acl_pre_ingress(in headers_t headers,
                        inout local_metadata_t local_metadata,
                        in standard_metadata_t standard_metadata) {
    @id(0x13000100)
    direct_counter(CounterType.packets_and_bytes) acl_pre_ingress_counter;

    @id(0x01000100)
    @sai_action(SAI_PACKET_ACTION_FORWARD)
    action set_vrf(@sai_action_param(SAI_ACL_ENTRY_ATTR_ACTION_SET_VRF)
                   @refers_to(vrf_table, vrf_id)
                   vrf_id_t vrf_id) {
        local_metadata.vrf_id = vrf_id;
    }

    @id(0x02000100)
    @sai_acl(PRE_INGRESS)
    @entry_restriction("
        // Only one of the IP families may be matched.
        is_ipv4::mask != 0 -> is_ipv4 == 1;
        is_ipv6::mask != 0 -> is_ipv6 == 1;
        is_ipv4::mask != 0 -> is_ipv6::mask == 0;
        // DSCP needs an IP family.
        dscp::mask != 0 -> (is_ipv4 == 1 || is_ipv6 == 1);
    ")
    table acl_pre_ingress_table {
        key = {
            (bit<1>) headers.ipv4.isValid() : optional @name("is_ipv4") @id(1)
                @sai_field(SAI_ACL_TABLE_ATTR_FIELD_ACL_IP_TYPE/IPV4ANY);
            (bit<1>) headers.ipv6.isValid() : optional @name("is_ipv6") @id(2)
                @sai_field(SAI_ACL_TABLE_ATTR_FIELD_ACL_IP_TYPE/IPV6ANY);
            headers.ethernet.src_addr : ternary @name("src_mac") @id(3)
                @sai_field(SAI_ACL_TABLE_ATTR_FIELD_SRC_MAC) @format(MAC_ADDRESS);
            headers.ipv4.dst_addr : ternary @name("dst_ip") @id(4)
                @sai_field(SAI_ACL_TABLE_ATTR_FIELD_DST_IP) @format(IPV4_ADDRESS);
            headers.ipv4.dscp : ternary @name("dscp") @id(5)
                @sai_field(SAI_ACL_TABLE_ATTR_FIELD_DSCP);
        }
        actions = {
            @proto_id(1) set_vrf;
            @defaultonly NoAction;
        }
        const default_action = NoAction;
        counters = acl_pre_ingress_counter;
        size = 254;
    }

    apply {
        acl_pre_ingress_table.apply();
    }
}

control admit_l3(in headers_t headers,
                 inout local_metadata_t local_metadata,
                 in standard_metadata_t standard_metadata) {
    @id(0x01000200)
    action admit_to_l3() {
        local_metadata.admit_to_l3 = true;
    }

    @id(0x02000200)
    @p4runtime_role("sdn_controller")
    @entry_restriction("
        // The whole MAC or a prefix of it, never a hole.
        dst_mac::mask != 0;
    ")
    table l3_admit_table {
        key = {
            headers.ethernet.dst_addr : ternary @name("dst_mac") @id(1) @format(MAC_ADDRESS);
            local_metadata.ingress_port : optional @name("in_port") @id(2);
        }
        actions = {
            @proto_id(1) admit_to_l3;
            @defaultonly NoAction;
        }
        const default_action = NoAction;
        size = 64;
    }

    apply {
        l3_admit_table.apply();
    }
}

control routing(in headers_t headers,
                inout local_metadata_t local_metadata,
                inout standard_metadata_t standard_metadata) {
    @id(0x01000300)
    action no_action() {
    }

    @id(0x02000300)
    @p4runtime_role("sdn_controller")
    table vrf_table {
        key = {
            local_metadata.vrf_id : exact @id(1) @name("vrf_id");
        }
        actions = {
            @proto_id(1) no_action;
        }
        const default_action = no_action;
        size = 64;
    }

    @id(0x01000301)
    action drop() {
        mark_to_drop(standard_metadata);
    }

    @id(0x01000302)
    action set_nexthop_id(@id(1) @refers_to(nexthop_table, nexthop_id)
                          nexthop_id_t nexthop_id) {
        local_metadata.nexthop_id_valid = true;
        local_metadata.nexthop_id_value = nexthop_id;
    }

    @id(0x01000303)
    action set_nexthop_id_and_metadata(@id(1) @refers_to(nexthop_table, nexthop_id)
                                       nexthop_id_t nexthop_id,
                                       @id(2) route_metadata_t route_metadata) {
        set_nexthop_id(nexthop_id);
        local_metadata.route_metadata = route_metadata;
    }

    @id(0x02000301)
    @p4runtime_role("sdn_controller")
    table ipv4_table {
        key = {
            local_metadata.vrf_id : exact @id(1) @name("vrf_id")
                @refers_to(vrf_table, vrf_id);
            headers.ipv4.dst_addr : lpm @id(2) @name("ipv4_dst") @format(IPV4_ADDRESS);
        }
        actions = {
            @proto_id(1) drop;
            @proto_id(2) set_nexthop_id;
            @proto_id(3) set_nexthop_id_and_metadata;
        }
        const default_action = drop;
        size = 1024;
    }

    @id(0x01000304)
    action set_ip_nexthop(@id(1) @refers_to(router_interface_table, router_interface_id)
                          router_interface_id_t router_interface_id,
                          @id(2) @refers_to(neighbor_table, neighbor_id)
                          neighbor_id_t neighbor_id) {
        local_metadata.router_interface_id = router_interface_id;
        local_metadata.neighbor_id = neighbor_id;
    }

    @id(0x02000302)
    @p4runtime_role("sdn_controller")
    table nexthop_table {
        key = {
            local_metadata.nexthop_id_value : exact @id(1) @name("nexthop_id");
        }
        actions = {
            @proto_id(1) set_ip_nexthop;
            @defaultonly NoAction;
        }
        const default_action = NoAction;
        size = 1024;
    }

    @id(0x01000305)
    action set_port_and_src_mac(@id(1) port_id_t port,
                                @id(2) @format(MAC_ADDRESS) ethernet_addr_t src_mac) {
        standard_metadata.egress_spec = (bit<9>) port;
        local_metadata.packet_rewrites.src_mac = src_mac;
    }

    @id(0x02000303)
    @p4runtime_role("sdn_controller")
    table router_interface_table {
        key = {
            local_metadata.router_interface_id : exact @id(1) @name("router_interface_id");
        }
        actions = {
            @proto_id(1) set_port_and_src_mac;
            @defaultonly NoAction;
        }
        const default_action = NoAction;
        size = 256;
    }

    @id(0x01000306)
    action set_dst_mac(@id(1) @format(MAC_ADDRESS) ethernet_addr_t dst_mac) {
        local_metadata.packet_rewrites.dst_mac = dst_mac;
    }

    @id(0x02000304)
    @p4runtime_role("sdn_controller")
    table neighbor_table {
        key = {
            local_metadata.router_interface_id : exact @id(1) @name("router_interface_id")
                @refers_to(router_interface_table, router_interface_id);
            local_metadata.neighbor_id : exact @id(2) @name("neighbor_id");
        }
        actions = {
            @proto_id(1) set_dst_mac;
            @defaultonly NoAction;
        }
        const default_action = NoAction;
        size = 1024;
    }

    apply {
        if (local_metadata.admit_to_l3) {
            vrf_table.apply();
            if (headers.ipv4.isValid()) {
                ipv4_table.apply();
            }
            if (local_metadata.nexthop_id_valid) {
                nexthop_table.apply();
                router_interface_table.apply();
                neighbor_table.apply();
            }
        } else {
            // A middleblock switch only routes.
            mark_to_drop(standard_metadata);
        }
    }
}

control acl_ingress(in headers_t headers,
                    inout local_metadata_t local_metadata,
                    inout standard_metadata_t standard_metadata) {
    @id(0x13000101)
    direct_counter(CounterType.packets_and_bytes) acl_ingress_counter;

    @id(0x01000101)
    @sai_action(SAI_PACKET_ACTION_COPY)
    action acl_copy(@sai_action_param(QOS_QUEUE) @id(1) qos_queue_t qos_queue) {
        local_metadata.marked_to_copy = true;
    }

    @id(0x01000102)
    @sai_action(SAI_PACKET_ACTION_TRAP)
    action acl_trap(@sai_action_param(QOS_QUEUE) @id(1) qos_queue_t qos_queue) {
        acl_copy(qos_queue);
        mark_to_drop(standard_metadata);
    }

    @id(0x01000107)
    @sai_action(SAI_PACKET_ACTION_TRAP)
    action acl_trap_to_default_queue() {
        standard_metadata.egress_spec = SAI_CPU_PORT;
    }

    @id(0x01000103)
    @sai_action(SAI_PACKET_ACTION_FORWARD)
    action acl_forward() {
    }

    @id(0x01000104)
    @sai_action(SAI_PACKET_ACTION_FORWARD)
    action acl_mirror(@id(1) @refers_to(mirror_session_table, mirror_session_id)
                      @sai_action_param(SAI_ACL_ENTRY_ATTR_ACTION_MIRROR_INGRESS)
                      mirror_session_id_t mirror_session_id) {
        local_metadata.marked_to_mirror = true;
        local_metadata.mirror_session_id = mirror_session_id;
    }

    @id(0x01000105)
    @sai_action(SAI_PACKET_ACTION_DROP)
    action acl_drop() {
        mark_to_drop(standard_metadata);
    }

    @id(0x02000101)
    @sai_acl(INGRESS)
    @entry_restriction("
        // Forbid using ether_type for IP packets (by convention, use is_ip* instead).
        ether_type != 0x0800 && ether_type != 0x86dd;
        // Only allow IP field matches for IP packets.
        dst_ip::mask != 0 -> is_ipv4 == 1;
        ttl::mask != 0 -> (is_ipv4 == 1 || is_ipv6 == 1);
        ip_protocol::mask != 0 -> (is_ipv4 == 1 || is_ipv6 == 1);
        // Only allow l4_dst_port matches for TCP/UDP packets.
        l4_dst_port::mask != 0 -> (ip_protocol == 6 || ip_protocol == 17);
    ")
    table acl_ingress_table {
        key = {
            (bit<1>) headers.ipv4.isValid() : optional @name("is_ipv4") @id(1)
                @sai_field(SAI_ACL_TABLE_ATTR_FIELD_ACL_IP_TYPE/IPV4ANY);
            (bit<1>) headers.ipv6.isValid() : optional @name("is_ipv6") @id(2)
                @sai_field(SAI_ACL_TABLE_ATTR_FIELD_ACL_IP_TYPE/IPV6ANY);
            headers.ethernet.ether_type : ternary @name("ether_type") @id(3)
                @sai_field(SAI_ACL_TABLE_ATTR_FIELD_ETHER_TYPE);
            headers.ethernet.dst_addr : ternary @name("dst_mac") @id(4)
                @sai_field(SAI_ACL_TABLE_ATTR_FIELD_DST_MAC) @format(MAC_ADDRESS);
            headers.ipv4.dst_addr : ternary @name("dst_ip") @id(5)
                @sai_field(SAI_ACL_TABLE_ATTR_FIELD_DST_IP) @format(IPV4_ADDRESS);
            headers.ipv4.ttl : ternary @name("ttl") @id(6)
                @sai_field(SAI_ACL_TABLE_ATTR_FIELD_TTL);
            headers.ipv4.protocol : ternary @name("ip_protocol") @id(7)
                @sai_field(SAI_ACL_TABLE_ATTR_FIELD_IP_PROTOCOL);
            local_metadata.l4_dst_port : ternary @name("l4_dst_port") @id(8)
                @sai_field(SAI_ACL_TABLE_ATTR_FIELD_L4_DST_PORT);
        }
        actions = {
            @proto_id(1) acl_copy();
            @proto_id(2) acl_trap();
            @proto_id(3) acl_forward();
            @proto_id(4) acl_mirror();
            @proto_id(5) acl_drop();
            @proto_id(6) acl_trap_to_default_queue();
            @defaultonly NoAction;
        }
        const default_action = NoAction;
        counters = acl_ingress_counter;
        size = 128;
    }

    apply {
        acl_ingress_table.apply();
    }
}

control mirror_session_lookup(inout headers_t headers,
                              inout local_metadata_t local_metadata,
                              inout standard_metadata_t standard_metadata) {
    @id(0x01000401)
    action mirror_as_ipv4_erspan(@id(1) port_id_t port,
                                 @id(2) @format(IPV4_ADDRESS) ipv4_addr_t src_ip,
                                 @id(3) @format(IPV4_ADDRESS) ipv4_addr_t dst_ip) {
        // The encapsulation itself is left to the mirror port in this model.
        local_metadata.ingress_port = port;
    }

    @id(0x02000401)
    table mirror_session_table {
        key = {
            local_metadata.mirror_session_id : exact @id(1) @name("mirror_session_id");
        }
        actions = {
            @proto_id(1) mirror_as_ipv4_erspan;
            @defaultonly NoAction;
        }
        const default_action = NoAction;
    }

    apply {
        if (local_metadata.marked_to_mirror) {
            mirror_session_table.apply();
        }
    }
}

control ingress(inout headers_t headers,
                inout local_metadata_t local_metadata,
                inout standard_metadata_t standard_metadata) {
    apply {
        packet_out_decap.apply(headers, local_metadata, standard_metadata);
        if (!local_metadata.bypass_ingress) {
            acl_pre_ingress.apply(headers, local_metadata, standard_metadata);
            admit_l3.apply(headers, local_metadata, standard_metadata);
            routing.apply(headers, local_metadata, standard_metadata);
            acl_ingress.apply(headers, local_metadata, standard_metadata);
            mirror_session_lookup.apply(headers, local_metadata, standard_metadata);
            if (local_metadata.marked_to_copy) {
                clone_preserving_field_list(CloneType.I2E, SAI_COPY_TO_CPU_SESSION,
                                            SAI_ROUTE_METADATA_DEFAULT);
            }
            if (local_metadata.admit_to_l3 && headers.ipv4.isValid() &&
                standard_metadata.egress_spec != SAI_CPU_PORT) {
                headers.ethernet.src_addr = local_metadata.packet_rewrites.src_mac;
                headers.ethernet.dst_addr = local_metadata.packet_rewrites.dst_mac;
                if (headers.ipv4.ttl <= 1) {
                    mark_to_drop(standard_metadata);
                } else {
                    headers.ipv4.ttl = headers.ipv4.ttl - 1;
                }
            }
        }
    }
}

control egress(inout headers_t headers,
               inout local_metadata_t local_metadata,
               inout standard_metadata_t standard_metadata) {
    apply {
        if (standard_metadata.egress_port == SAI_CPU_PORT) {
            headers.packet_in_header.setValid();
            headers.packet_in_header.ingress_port = local_metadata.ingress_port;
            headers.packet_in_header.target_egress_port = local_metadata.ingress_port;
            headers.packet_in_header.unused_pad = 0;
        }
    }
}

control verify_ipv4_checksum(inout headers_t headers,
                             inout local_metadata_t local_metadata) {
    apply {
        verify_checksum(headers.ipv4.isValid(),
            { headers.ipv4.version, headers.ipv4.ihl, headers.ipv4.dscp,
              headers.ipv4.ecn, headers.ipv4.total_len, headers.ipv4.identification,
              headers.ipv4.reserved, headers.ipv4.do_not_fragment,
              headers.ipv4.more_fragments, headers.ipv4.frag_offset, headers.ipv4.ttl,
              headers.ipv4.protocol, headers.ipv4.src_addr, headers.ipv4.dst_addr },
            headers.ipv4.header_checksum, HashAlgorithm.csum16);
    }
}

control compute_ipv4_checksum(inout headers_t headers,
                              inout local_metadata_t local_metadata) {
    apply {
        update_checksum(headers.ipv4.isValid(),
            { headers.ipv4.version, headers.ipv4.ihl, headers.ipv4.dscp,
              headers.ipv4.ecn, headers.ipv4.total_len, headers.ipv4.identification,
              headers.ipv4.reserved, headers.ipv4.do_not_fragment,
              headers.ipv4.more_fragments, headers.ipv4.frag_offset, headers.ipv4.ttl,
              headers.ipv4.protocol, headers.ipv4.src_addr, headers.ipv4.dst_addr },
            headers.ipv4.header_checksum, HashAlgorithm.csum16);
    }
}

control packet_deparser(packet_out packet, in headers_t headers) {
    apply {
        packet.emit(headers.packet_in_header);
        packet.emit(headers.ethernet);
        packet.emit(headers.ipv4);
        packet.emit(headers.ipv6);
        packet.emit(headers.arp);
        packet.emit(headers.icmp);
        packet.emit(headers.tcp);
        packet.emit(headers.udp);
    }
}

@pkginfo(name = "middleblock.p4", organization = "corpus", version = "1.0.0")
V1Switch(packet_parser(), verify_ipv4_checksum(), ingress(), egress(),
         compute_ipv4_checksum(), packet_deparser()) main;
