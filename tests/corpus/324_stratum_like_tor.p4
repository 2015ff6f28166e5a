// Corpus 324: a top-of-rack pipeline in the style of Stratum's v1model programs: header
// fields and tables carry @switchstack annotations naming field types and pipeline stages
// (VLAN, L2, L3 LPM, ACL), a class-id VRF set from the ingress port, my-station admission,
// host and prefix routes in two tables (exact /32 host table first), L2 forwarding by VLAN
// and MAC, a punt/drop ACL and egress VLAN tagging. Direct counters on the ACL.
#include <core.p4>
#include <v1model.p4>

#define CPU_PORT 253
#define ETHERTYPE_VLAN 0x8100
#define ETHERTYPE_IPV4 0x0800

typedef bit<48> EthernetAddress;
typedef bit<32> IPv4Address;
typedef bit<12> VlanId_t;
typedef bit<10> Vrf_t;

@controller_header("packet_in")
header packet_in_header_t {
    @switchstack("field_type: P4_FIELD_TYPE_INGRESS_PORT")
    bit<9> ingress_physical_port;
    bit<7> padding;
}

@controller_header("packet_out")
header packet_out_header_t {
    @switchstack("field_type: P4_FIELD_TYPE_EGRESS_PORT")
    bit<9> egress_physical_port;
    bit<7> padding;
}

header ethernet_t {
    @switchstack("field_type: P4_FIELD_TYPE_ETH_DST")
    EthernetAddress dst_addr;
    @switchstack("field_type: P4_FIELD_TYPE_ETH_SRC")
    EthernetAddress src_addr;
    @switchstack("field_type: P4_FIELD_TYPE_ETH_TYPE")
    bit<16> ether_type;
}

header vlan_tag_t {
    bit<3>   pcp;
    bit<1>   cfi;
    @switchstack("field_type: P4_FIELD_TYPE_VLAN_VID")
    VlanId_t vid;
    bit<16>  ether_type;
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
    @switchstack("field_type: P4_FIELD_TYPE_IPV4_TTL")
    bit<8>      ttl;
    @switchstack("field_type: P4_FIELD_TYPE_IPV4_PROTO")
    bit<8>      protocol;
    bit<16>     hdr_checksum;
    @switchstack("field_type: P4_FIELD_TYPE_IPV4_SRC")
    IPv4Address src_addr;
    @switchstack("field_type: P4_FIELD_TYPE_IPV4_DST")
    IPv4Address dst_addr;
}

struct headers_t {
    packet_in_header_t  packet_in;
    packet_out_header_t packet_out;
    ethernet_t          ethernet;
    vlan_tag_t          vlan_tag;
    ipv4_t              ipv4;
}

struct local_metadata_t {
    Vrf_t    vrf_id;
    VlanId_t vlan_id;
    bool     l3_admit;
    bool     routed;
    bit<9>   egress_port;
    bit<5>   cpu_queue;
}

parser stratum_parser(packet_in packet, out headers_t hdr,
                      inout local_metadata_t meta,
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
        transition select(hdr.ethernet.ether_type) {
            ETHERTYPE_VLAN: parse_vlan;
            ETHERTYPE_IPV4: parse_ipv4;
            default: accept;
        }
    }

    state parse_vlan {
        packet.extract(hdr.vlan_tag);
        transition select(hdr.vlan_tag.ether_type) {
            ETHERTYPE_IPV4: parse_ipv4;
            default: accept;
        }
    }

    state parse_ipv4 {
        packet.extract(hdr.ipv4);
        transition accept;
    }
}

control stratum_verify_checksum(inout headers_t hdr, inout local_metadata_t meta) {
    apply { }
}

control vlan_control(inout headers_t hdr, inout local_metadata_t meta,
                     inout standard_metadata_t standard_metadata) {
    action set_port_vlan_and_vrf(VlanId_t vlan_id, Vrf_t vrf_id) {
        meta.vlan_id = vlan_id;
        meta.vrf_id = vrf_id;
    }

    action drop() {
        mark_to_drop(standard_metadata);
    }

    @switchstack("pipeline_stage: VLAN_ACL")
    table port_vlan {
        key = {
            standard_metadata.ingress_port : exact @name("port");
            hdr.vlan_tag.isValid()         : exact @name("tagged");
        }
        actions = {
            set_port_vlan_and_vrf;
            @defaultonly drop;
        }
        const default_action = drop();
    }

    apply {
        port_vlan.apply();
        if (hdr.vlan_tag.isValid()) {
            meta.vlan_id = hdr.vlan_tag.vid;
        }
    }
}

control l3_fwd(inout headers_t hdr, inout local_metadata_t meta,
               inout standard_metadata_t standard_metadata) {
    action admit() {
        meta.l3_admit = true;
    }

    @switchstack("pipeline_stage: L2")
    table my_station {
        key = {
            hdr.ethernet.dst_addr : exact @name("dst_mac");
        }
        actions = {
            admit;
            @defaultonly NoAction;
        }
        const default_action = NoAction();
    }

    action set_nexthop(bit<9> port, EthernetAddress smac, EthernetAddress dmac,
                       VlanId_t dst_vlan) {
        meta.egress_port = port;
        meta.vlan_id = dst_vlan;
        meta.routed = true;
        hdr.ethernet.src_addr = smac;
        hdr.ethernet.dst_addr = dmac;
        hdr.ipv4.ttl = hdr.ipv4.ttl - 1;
    }

    action drop() {
        mark_to_drop(standard_metadata);
    }

    @switchstack("pipeline_stage: L3_LPM")
    table host_routes {
        key = {
            meta.vrf_id       : exact @name("vrf");
            hdr.ipv4.dst_addr : exact @name("dst_ip");
        }
        actions = {
            set_nexthop;
            @defaultonly NoAction;
        }
        const default_action = NoAction();
    }

    @switchstack("pipeline_stage: L3_LPM")
    table prefix_routes {
        key = {
            meta.vrf_id       : exact @name("vrf");
            hdr.ipv4.dst_addr : lpm @name("dst_prefix");
        }
        actions = {
            set_nexthop;
            drop;
        }
        const default_action = drop();
    }

    apply {
        my_station.apply();
        if (meta.l3_admit && hdr.ipv4.isValid()) {
            if (!host_routes.apply().hit) {
                prefix_routes.apply();
            }
        }
    }
}

control l2_fwd(inout headers_t hdr, inout local_metadata_t meta,
               inout standard_metadata_t standard_metadata) {
    action l2_unicast(bit<9> port) {
        meta.egress_port = port;
    }

    action l2_broadcast(bit<16> group) {
        standard_metadata.mcast_grp = group;
    }

    @switchstack("pipeline_stage: L2")
    table l2_table {
        key = {
            meta.vlan_id          : exact @name("vlan");
            hdr.ethernet.dst_addr : exact @name("dst_mac");
        }
        actions = {
            l2_unicast;
            l2_broadcast;
            @defaultonly NoAction;
        }
        const default_action = NoAction();
    }

    apply {
        l2_table.apply();
    }
}

control punt(inout headers_t hdr, inout local_metadata_t meta,
             inout standard_metadata_t standard_metadata) {
    direct_counter(CounterType.packets) punt_counter;

    action set_queue_and_send_to_cpu(bit<5> queue_id) {
        standard_metadata.egress_spec = CPU_PORT;
        // The CPU queue is the platform's business (BMv2 has one queue per port).
        meta.cpu_queue = queue_id;
    }

    action drop() {
        mark_to_drop(standard_metadata);
    }

    @switchstack("pipeline_stage: INGRESS_ACL")
    table punt_table {
        key = {
            standard_metadata.ingress_port : ternary @name("in_port");
            hdr.ethernet.ether_type        : ternary @name("eth_type");
            hdr.ipv4.protocol              : ternary @name("ip_proto");
            hdr.ipv4.ttl                   : ternary @name("ttl");
        }
        actions = {
            set_queue_and_send_to_cpu;
            drop;
            @defaultonly NoAction;
        }
        const default_action = NoAction();
        counters = punt_counter;
    }

    apply {
        punt_table.apply();
    }
}

control stratum_ingress(inout headers_t hdr, inout local_metadata_t meta,
                        inout standard_metadata_t standard_metadata) {
    vlan_control() vlan;
    l3_fwd() l3;
    l2_fwd() l2;
    punt() acl;

    apply {
        meta.l3_admit = false;
        meta.routed = false;
        meta.egress_port = 0;
        if (hdr.packet_out.isValid()) {
            standard_metadata.egress_spec = hdr.packet_out.egress_physical_port;
            hdr.packet_out.setInvalid();
            exit;
        }
        vlan.apply(hdr, meta, standard_metadata);
        l3.apply(hdr, meta, standard_metadata);
        if (!meta.routed) {
            l2.apply(hdr, meta, standard_metadata);
        }
        if (meta.egress_port != 0) {
            standard_metadata.egress_spec = meta.egress_port;
        } else if (standard_metadata.mcast_grp == 0) {
            mark_to_drop(standard_metadata);
        }
        acl.apply(hdr, meta, standard_metadata);
    }
}

control stratum_egress(inout headers_t hdr, inout local_metadata_t meta,
                       inout standard_metadata_t standard_metadata) {
    action tag(VlanId_t vid) {
        hdr.vlan_tag.setValid();
        hdr.vlan_tag.pcp = 0;
        hdr.vlan_tag.cfi = 0;
        hdr.vlan_tag.vid = vid;
        hdr.vlan_tag.ether_type = hdr.ethernet.ether_type;
        hdr.ethernet.ether_type = ETHERTYPE_VLAN;
    }

    action untag() {
        hdr.ethernet.ether_type = hdr.vlan_tag.ether_type;
        hdr.vlan_tag.setInvalid();
    }

    @switchstack("pipeline_stage: EGRESS_VLAN")
    table egress_vlan {
        key = {
            standard_metadata.egress_port : exact @name("port");
        }
        actions = {
            tag;
            @defaultonly NoAction;
        }
        const default_action = NoAction();
    }

    apply {
        if (standard_metadata.egress_port == CPU_PORT) {
            hdr.packet_in.setValid();
            hdr.packet_in.ingress_physical_port = standard_metadata.ingress_port;
            hdr.packet_in.padding = 0;
            return;
        }
        if (standard_metadata.mcast_grp != 0 &&
            standard_metadata.egress_port == standard_metadata.ingress_port) {
            mark_to_drop(standard_metadata);
        }
        // Access ports: whatever came in tagged leaves untagged unless egress_vlan tags it.
        if (hdr.vlan_tag.isValid()) {
            untag();
        }
        if (egress_vlan.apply().hit) {
            hdr.vlan_tag.vid = meta.vlan_id;
        }
    }
}

control stratum_compute_checksum(inout headers_t hdr, inout local_metadata_t meta) {
    apply {
        update_checksum(hdr.ipv4.isValid(),
            { hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.dscp, hdr.ipv4.ecn,
              hdr.ipv4.total_len, hdr.ipv4.identification, hdr.ipv4.flags,
              hdr.ipv4.frag_offset, hdr.ipv4.ttl, hdr.ipv4.protocol,
              hdr.ipv4.src_addr, hdr.ipv4.dst_addr },
            hdr.ipv4.hdr_checksum, HashAlgorithm.csum16);
    }
}

control stratum_deparser(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.packet_in);
        packet.emit(hdr.ethernet);
        packet.emit(hdr.vlan_tag);
        packet.emit(hdr.ipv4);
    }
}

V1Switch(stratum_parser(), stratum_verify_checksum(), stratum_ingress(),
         stratum_egress(), stratum_compute_checksum(), stratum_deparser()) main;
