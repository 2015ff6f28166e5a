// Corpus 304: an IPv6 leaf in the style of the ngsdn tutorial: packet I/O with the
// controller, L2 bridging (exact unicast, ternary multicast to replication groups, no
// reflection), NDP neighbour solicitations answered in the data plane (NA built in place,
// ICMPv6 checksum over the pseudo header), my-station IPv6 routing with hop-limit
// decrement, SRv6 (insert of a two- or three-segment SRH, End with the next SID found
// while parsing the segment list, pop at the last segment) and an ACL that punts, clones
// to the CPU or drops.
#include <core.p4>
#include <v1model.p4>

#define CPU_PORT 255
#define CPU_CLONE_SESSION_ID 99
#define SRV6_MAX_HOPS 4

typedef bit<9>   port_num_t;
typedef bit<48>  mac_addr_t;
typedef bit<16>  mcast_group_id_t;
typedef bit<32>  ipv4_addr_t;
typedef bit<128> ipv6_addr_t;
typedef bit<16>  l4_port_t;

const bit<16> ETHERTYPE_IPV4 = 0x0800;
const bit<16> ETHERTYPE_IPV6 = 0x86dd;

const bit<8> IP_PROTO_ICMP   = 1;
const bit<8> IP_PROTO_TCP    = 6;
const bit<8> IP_PROTO_UDP    = 17;
const bit<8> IP_PROTO_SRV6   = 43;
const bit<8> IP_PROTO_ICMPV6 = 58;

const mac_addr_t IPV6_MCAST_01 = 0x33_33_00_00_00_01;

const bit<8> ICMP6_TYPE_RS = 133;
const bit<8> ICMP6_TYPE_NS = 135;
const bit<8> ICMP6_TYPE_NA = 136;
const bit<8> NDP_OPT_TARGET_LL_ADDR = 2;
const bit<32> NDP_FLAG_ROUTER    = 0x80000000;
const bit<32> NDP_FLAG_SOLICITED = 0x40000000;
const bit<32> NDP_FLAG_OVERRIDE  = 0x20000000;

@controller_header("packet_in")
header cpu_in_header_t {
    port_num_t ingress_port;
    bit<7>     _pad;
}

@controller_header("packet_out")
header cpu_out_header_t {
    port_num_t egress_port;
    bit<7>     _pad;
}

header ethernet_t {
    mac_addr_t dst_addr;
    mac_addr_t src_addr;
    bit<16>    ether_type;
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

header srv6h_t {
    bit<8>  next_hdr;
    bit<8>  hdr_ext_len;
    bit<8>  routing_type;
    bit<8>  segment_left;
    bit<8>  last_entry;
    bit<8>  flags;
    bit<16> tag;
}

header srv6_list_t {
    ipv6_addr_t segment_id;
}

header tcp_t {
    bit<16> src_port;
    bit<16> dst_port;
    bit<32> seq_no;
    bit<32> ack_no;
    bit<4>  data_offset;
    bit<3>  res;
    bit<3>  ecn;
    bit<6>  ctrl;
    bit<16> window;
    bit<16> checksum;
    bit<16> urgent_ptr;
}

header udp_t {
    bit<16> src_port;
    bit<16> dst_port;
    bit<16> len;
    bit<16> checksum;
}

header icmpv6_t {
    bit<8>  type;
    bit<8>  code;
    bit<16> checksum;
}

header ndp_t {
    bit<32>     flags;
    ipv6_addr_t target_ipv6_addr;
    // The one option this leaf reads and writes: a link-layer address.
    bit<8>      type;
    bit<8>      length;
    bit<48>     target_mac_addr;
}

struct parsed_headers_t {
    cpu_out_header_t             cpu_out;
    cpu_in_header_t              cpu_in;
    ethernet_t                   ethernet;
    ipv6_t                       ipv6;
    srv6h_t                      srv6h;
    srv6_list_t[SRV6_MAX_HOPS]   srv6_list;
    tcp_t                        tcp;
    udp_t                        udp;
    icmpv6_t                     icmpv6;
    ndp_t                        ndp;
}

struct local_metadata_t {
    l4_port_t   l4_src_port;
    l4_port_t   l4_dst_port;
    bool        is_multicast;
    ipv6_addr_t next_srv6_sid;
    bit<8>      srv6_index;
    bit<8>      ip_proto;
    bit<8>      icmp_type;
}

parser ParserImpl(packet_in packet, out parsed_headers_t hdr,
                  inout local_metadata_t local_metadata,
                  inout standard_metadata_t standard_metadata) {
    state start {
        local_metadata.srv6_index = 0;
        local_metadata.ip_proto = 0;
        local_metadata.icmp_type = 0;
        local_metadata.l4_src_port = 0;
        local_metadata.l4_dst_port = 0;
        transition select(standard_metadata.ingress_port) {
            CPU_PORT: parse_packet_out;
            default: parse_ethernet;
        }
    }

    state parse_packet_out {
        packet.extract(hdr.cpu_out);
        transition parse_ethernet;
    }

    state parse_ethernet {
        packet.extract(hdr.ethernet);
        transition select(hdr.ethernet.ether_type) {
            ETHERTYPE_IPV6: parse_ipv6;
            default: accept;
        }
    }

    state parse_ipv6 {
        packet.extract(hdr.ipv6);
        local_metadata.ip_proto = hdr.ipv6.next_hdr;
        transition select(hdr.ipv6.next_hdr) {
            IP_PROTO_TCP: parse_tcp;
            IP_PROTO_UDP: parse_udp;
            IP_PROTO_ICMPV6: parse_icmpv6;
            IP_PROTO_SRV6: parse_srv6;
            default: accept;
        }
    }

    state parse_srv6 {
        packet.extract(hdr.srv6h);
        transition parse_srv6_list;
    }

    state parse_srv6_list {
        packet.extract(hdr.srv6_list.next);
        // The SID after this hop is the entry at segment_left - 1.
        transition select(local_metadata.srv6_index == hdr.srv6h.segment_left - 1) {
            true: mark_current_srv6;
            default: check_last_srv6;
        }
    }

    state mark_current_srv6 {
        local_metadata.next_srv6_sid = hdr.srv6_list.last.segment_id;
        transition check_last_srv6;
    }

    state check_last_srv6 {
        local_metadata.srv6_index = local_metadata.srv6_index + 1;
        transition select(hdr.srv6h.last_entry + 1 == local_metadata.srv6_index) {
            true: parse_srv6_next_hdr;
            default: parse_srv6_list;
        }
    }

    state parse_srv6_next_hdr {
        transition select(hdr.srv6h.next_hdr) {
            IP_PROTO_TCP: parse_tcp;
            IP_PROTO_UDP: parse_udp;
            IP_PROTO_ICMPV6: parse_icmpv6;
            default: accept;
        }
    }

    state parse_tcp {
        packet.extract(hdr.tcp);
        local_metadata.l4_src_port = hdr.tcp.src_port;
        local_metadata.l4_dst_port = hdr.tcp.dst_port;
        transition accept;
    }

    state parse_udp {
        packet.extract(hdr.udp);
        local_metadata.l4_src_port = hdr.udp.src_port;
        local_metadata.l4_dst_port = hdr.udp.dst_port;
        transition accept;
    }

    state parse_icmpv6 {
        packet.extract(hdr.icmpv6);
        local_metadata.icmp_type = hdr.icmpv6.type;
        transition select(hdr.icmpv6.type) {
            ICMP6_TYPE_NS: parse_ndp;
            ICMP6_TYPE_NA: parse_ndp;
            default: accept;
        }
    }

    state parse_ndp {
        packet.extract(hdr.ndp);
        transition accept;
    }
}

control VerifyChecksumImpl(inout parsed_headers_t hdr, inout local_metadata_t meta) {
    apply { }
}

control IngressPipeImpl(inout parsed_headers_t hdr,
                        inout local_metadata_t local_metadata,
                        inout standard_metadata_t standard_metadata) {
    action drop() {
        mark_to_drop(standard_metadata);
    }

    // --- L2 bridging -------------------------------------------------------------

    action set_egress_port(port_num_t port_num) {
        standard_metadata.egress_spec = port_num;
    }

    table l2_exact_table {
        key = {
            hdr.ethernet.dst_addr : exact;
        }
        actions = {
            set_egress_port;
            @defaultonly drop;
        }
        const default_action = drop;
        @name("l2_exact_table_counter")
        counters = direct_counter(CounterType.packets_and_bytes);
    }

    action set_multicast_group(mcast_group_id_t gid) {
        standard_metadata.mcast_grp = gid;
        local_metadata.is_multicast = true;
    }

    table l2_ternary_table {
        key = {
            hdr.ethernet.dst_addr : ternary;
        }
        actions = {
            set_multicast_group;
            @defaultonly drop;
        }
        const default_action = drop;
        @name("l2_ternary_table_counter")
        counters = direct_counter(CounterType.packets_and_bytes);
    }

    // --- NDP -------------------------------------------------------------------

    action ndp_ns_to_na(mac_addr_t target_mac) {
        hdr.ethernet.src_addr = target_mac;
        hdr.ethernet.dst_addr = IPV6_MCAST_01;
        ipv6_addr_t host_ipv6_tmp = hdr.ipv6.src_addr;
        hdr.ipv6.src_addr = hdr.ndp.target_ipv6_addr;
        hdr.ipv6.dst_addr = host_ipv6_tmp;
        hdr.ipv6.next_hdr = IP_PROTO_ICMPV6;
        hdr.ipv6.hop_limit = 255;
        hdr.icmpv6.type = ICMP6_TYPE_NA;
        hdr.ndp.flags = NDP_FLAG_ROUTER | NDP_FLAG_OVERRIDE;
        hdr.ndp.type = NDP_OPT_TARGET_LL_ADDR;
        hdr.ndp.length = 1;
        hdr.ndp.target_mac_addr = target_mac;
        standard_metadata.egress_spec = standard_metadata.ingress_port;
    }

    table ndp_reply_table {
        key = {
            hdr.ndp.target_ipv6_addr : exact;
        }
        actions = {
            ndp_ns_to_na;
        }
        @name("ndp_reply_table_counter")
        counters = direct_counter(CounterType.packets_and_bytes);
    }

    // --- routing ---------------------------------------------------------------

    table my_station_table {
        key = {
            hdr.ethernet.dst_addr : exact;
        }
        actions = {
            NoAction;
        }
        @name("my_station_table_counter")
        counters = direct_counter(CounterType.packets_and_bytes);
    }

    action set_next_hop(mac_addr_t dmac) {
        hdr.ethernet.src_addr = hdr.ethernet.dst_addr;
        hdr.ethernet.dst_addr = dmac;
        hdr.ipv6.hop_limit = hdr.ipv6.hop_limit - 1;
    }

    table routing_v6_table {
        key = {
            hdr.ipv6.dst_addr : lpm;
        }
        actions = {
            set_next_hop;
        }
        @name("routing_v6_table_counter")
        counters = direct_counter(CounterType.packets_and_bytes);
    }

    // --- SRv6 ------------------------------------------------------------------

    action srv6_end() {
        hdr.srv6h.segment_left = hdr.srv6h.segment_left - 1;
        hdr.ipv6.dst_addr = local_metadata.next_srv6_sid;
    }

    table srv6_my_sid {
        key = {
            hdr.ipv6.dst_addr : lpm;
        }
        actions = {
            srv6_end;
        }
        @name("srv6_my_sid_table_counter")
        counters = direct_counter(CounterType.packets_and_bytes);
    }

    action insert_srv6h_header(bit<8> num_segments) {
        hdr.srv6h.setValid();
        hdr.srv6h.next_hdr = hdr.ipv6.next_hdr;
        hdr.srv6h.hdr_ext_len = num_segments * 2;
        hdr.srv6h.routing_type = 4;
        hdr.srv6h.segment_left = num_segments - 1;
        hdr.srv6h.last_entry = num_segments - 1;
        hdr.srv6h.flags = 0;
        hdr.srv6h.tag = 0;
        hdr.ipv6.next_hdr = IP_PROTO_SRV6;
    }

    action srv6_t_insert_2(ipv6_addr_t s1, ipv6_addr_t s2) {
        hdr.ipv6.dst_addr = s1;
        hdr.ipv6.payload_len = hdr.ipv6.payload_len + 40;
        insert_srv6h_header(2);
        hdr.srv6_list[0].setValid();
        hdr.srv6_list[0].segment_id = s2;
        hdr.srv6_list[1].setValid();
        hdr.srv6_list[1].segment_id = s1;
    }

    action srv6_t_insert_3(ipv6_addr_t s1, ipv6_addr_t s2, ipv6_addr_t s3) {
        hdr.ipv6.dst_addr = s1;
        hdr.ipv6.payload_len = hdr.ipv6.payload_len + 56;
        insert_srv6h_header(3);
        hdr.srv6_list[0].setValid();
        hdr.srv6_list[0].segment_id = s3;
        hdr.srv6_list[1].setValid();
        hdr.srv6_list[1].segment_id = s2;
        hdr.srv6_list[2].setValid();
        hdr.srv6_list[2].segment_id = s1;
    }

    table srv6_transit {
        key = {
            hdr.ipv6.dst_addr : lpm;
        }
        actions = {
            srv6_t_insert_2;
            srv6_t_insert_3;
            @defaultonly NoAction;
        }
        default_action = NoAction;
        @name("srv6_transit_table_counter")
        counters = direct_counter(CounterType.packets_and_bytes);
    }

    action srv6_pop() {
        hdr.ipv6.next_hdr = hdr.srv6h.next_hdr;
        // 8 bytes of SRH plus 16 per segment.
        bit<16> srh_size = 8 + (((bit<16>) hdr.srv6h.last_entry) + 1) * 16;
        hdr.ipv6.payload_len = hdr.ipv6.payload_len - srh_size;
        hdr.srv6h.setInvalid();
        hdr.srv6_list[0].setInvalid();
        hdr.srv6_list[1].setInvalid();
        hdr.srv6_list[2].setInvalid();
        hdr.srv6_list[3].setInvalid();
    }

    // --- ACL -------------------------------------------------------------------

    action send_to_cpu() {
        standard_metadata.egress_spec = CPU_PORT;
    }

    action clone_to_cpu() {
        clone(CloneType.I2E, CPU_CLONE_SESSION_ID);
    }

    table acl_table {
        key = {
            standard_metadata.ingress_port : ternary;
            hdr.ethernet.dst_addr          : ternary;
            hdr.ethernet.src_addr          : ternary;
            hdr.ethernet.ether_type        : ternary;
            local_metadata.ip_proto        : ternary;
            local_metadata.icmp_type       : ternary;
            local_metadata.l4_src_port     : ternary;
            local_metadata.l4_dst_port     : ternary;
        }
        actions = {
            send_to_cpu;
            clone_to_cpu;
            drop;
        }
        @name("acl_table_counter")
        counters = direct_counter(CounterType.packets_and_bytes);
    }

    apply {
        local_metadata.is_multicast = false;
        if (hdr.cpu_out.isValid()) {
            standard_metadata.egress_spec = hdr.cpu_out.egress_port;
            hdr.cpu_out.setInvalid();
            exit;
        }

        bool do_l3_l2 = true;

        if (hdr.icmpv6.isValid() && hdr.icmpv6.type == ICMP6_TYPE_NS) {
            if (ndp_reply_table.apply().hit) {
                do_l3_l2 = false;
            }
        }

        if (do_l3_l2) {
            if (hdr.ipv6.isValid() && my_station_table.apply().hit) {
                if (srv6_my_sid.apply().hit) {
                    if (hdr.srv6h.isValid() && hdr.srv6h.segment_left == 0) {
                        srv6_pop();
                    }
                } else {
                    srv6_transit.apply();
                }
                routing_v6_table.apply();
                if (hdr.ipv6.hop_limit == 0) {
                    drop();
                }
            }
            if (!l2_exact_table.apply().hit) {
                l2_ternary_table.apply();
            }
        }

        acl_table.apply();
    }
}

control EgressPipeImpl(inout parsed_headers_t hdr,
                       inout local_metadata_t local_metadata,
                       inout standard_metadata_t standard_metadata) {
    apply {
        if (standard_metadata.egress_port == CPU_PORT) {
            hdr.cpu_in.setValid();
            hdr.cpu_in.ingress_port = standard_metadata.ingress_port;
            hdr.cpu_in._pad = 0;
            exit;
        }
        if (local_metadata.is_multicast == true &&
            standard_metadata.ingress_port == standard_metadata.egress_port) {
            mark_to_drop(standard_metadata);
        }
    }
}

control ComputeChecksumImpl(inout parsed_headers_t hdr, inout local_metadata_t meta) {
    apply {
        update_checksum(hdr.ndp.isValid(),
            { hdr.ipv6.src_addr, hdr.ipv6.dst_addr, hdr.ipv6.payload_len, 8w0,
              hdr.ipv6.next_hdr, hdr.icmpv6.type, hdr.icmpv6.code, hdr.ndp.flags,
              hdr.ndp.target_ipv6_addr, hdr.ndp.type, hdr.ndp.length,
              hdr.ndp.target_mac_addr },
            hdr.icmpv6.checksum, HashAlgorithm.csum16);
    }
}

control DeparserImpl(packet_out packet, in parsed_headers_t hdr) {
    apply {
        packet.emit(hdr.cpu_in);
        packet.emit(hdr.ethernet);
        packet.emit(hdr.ipv6);
        packet.emit(hdr.srv6h);
        packet.emit(hdr.srv6_list);
        packet.emit(hdr.tcp);
        packet.emit(hdr.udp);
        packet.emit(hdr.icmpv6);
        packet.emit(hdr.ndp);
    }
}

V1Switch(ParserImpl(), VerifyChecksumImpl(), IngressPipeImpl(), EgressPipeImpl(),
         ComputeChecksumImpl(), DeparserImpl()) main;
