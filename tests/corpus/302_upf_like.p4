// Corpus 302: a 5G user plane function in the style of up4's BMv2 pipeline: interface
// lookup by destination address, GTP-U decapsulation of uplink traffic and encapsulation of
// downlink traffic (outer IPv4/UDP/GTP-U built from tunnel-peer parameters), sessions and
// terminations (PDR/FAR-like) keyed by UE address and application id, an application
// classifier with a range on the L4 port, per-termination counters before and after QoS,
// session meters, a downlink-data-notification digest, and IPv4 routing.
#include <core.p4>
#include <v1model.p4>

#define MAX_UES 1024
#define MAX_COUNTERS 1024
#define MAX_APPS 64
#define MAX_TUNNEL_PEERS 32

typedef bit<48> mac_addr_t;
typedef bit<32> ipv4_addr_t;
typedef bit<16> l4_port_t;
typedef bit<32> teid_t;
typedef bit<6>  qfi_t;
typedef bit<32> counter_index_t;
typedef bit<8>  tunnel_peer_id_t;
typedef bit<8>  app_id_t;
typedef bit<32> session_meter_idx_t;
typedef bit<9>  port_num_t;

const bit<16> ETHERTYPE_IPV4 = 0x0800;
const bit<8>  IP_PROTO_ICMP = 1;
const bit<8>  IP_PROTO_TCP  = 6;
const bit<8>  IP_PROTO_UDP  = 17;
const l4_port_t GTPU_UDP_PORT = 2152;
const bit<3>  GTP_V1 = 1;
const bit<1>  GTP_PROTOCOL_TYPE_GTP = 1;
const bit<8>  GTPU_GPDU = 0xff;
const bit<8>  DEFAULT_IPV4_TTL = 64;
const bit<4>  IPV4_MIN_IHL = 5;

const bit<16> IPV4_HDR_SIZE = 20;
const bit<16> UDP_HDR_SIZE  = 8;
const bit<16> GTPU_HDR_SIZE = 8;

enum bit<8> InterfaceType {
    UNKNOWN      = 0x0,
    ACCESS       = 0x1,
    CORE         = 0x2,
    N6_LAN       = 0x3,
    VN_INTERNAL  = 0x4,
    CONTROL_PLANE = 0x5
}

enum bit<2> Direction {
    UNKNOWN  = 0x0,
    UPLINK   = 0x1,
    DOWNLINK = 0x2,
    OTHER    = 0x3
}

header ethernet_t {
    mac_addr_t dst_addr;
    mac_addr_t src_addr;
    bit<16>    ether_type;
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
    bit<8>      proto;
    bit<16>     checksum;
    ipv4_addr_t src_addr;
    ipv4_addr_t dst_addr;
}

header udp_t {
    l4_port_t sport;
    l4_port_t dport;
    bit<16>   len;
    bit<16>   checksum;
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

header icmp_t {
    bit<8>  icmp_type;
    bit<8>  icmp_code;
    bit<16> checksum;
    bit<16> identifier;
    bit<16> sequence_number;
}

header gtpu_t {
    bit<3>  version;
    bit<1>  pt;
    bit<1>  spare;
    bit<1>  ex_flag;
    bit<1>  seq_flag;
    bit<1>  npdu_flag;
    bit<8>  msgtype;
    bit<16> msglen;
    teid_t  teid;
}

struct parsed_headers_t {
    ethernet_t ethernet;
    ipv4_t     ipv4;
    udp_t      udp;
    gtpu_t     gtpu;
    ipv4_t     inner_ipv4;
    udp_t      inner_udp;
    tcp_t      tcp;
    icmp_t     icmp;
}

struct ddn_digest_t {
    ipv4_addr_t ue_address;
}

struct local_metadata_t {
    Direction           direction;
    InterfaceType       src_iface;
    bool                needs_gtpu_decap;
    bool                needs_tunneling;
    bool                needs_buffering;
    bool                needs_dropping;
    bool                terminations_hit;
    teid_t              teid;
    qfi_t               qfi;
    tunnel_peer_id_t    tunnel_peer_id;
    ipv4_addr_t         tunnel_out_src_ipv4_addr;
    ipv4_addr_t         tunnel_out_dst_ipv4_addr;
    l4_port_t           tunnel_out_udp_sport;
    counter_index_t     ctr_idx;
    app_id_t            application_id;
    session_meter_idx_t session_meter_idx;
    ipv4_addr_t         ue_addr;
    ipv4_addr_t         inet_addr;
    l4_port_t           ue_l4_port;
    l4_port_t           inet_l4_port;
    bit<8>              ip_proto;
    bit<2>              session_color;
}

parser ParserImpl(packet_in packet, out parsed_headers_t hdr,
                  inout local_metadata_t local_meta,
                  inout standard_metadata_t std_meta) {
    state start {
        transition parse_ethernet;
    }

    state parse_ethernet {
        packet.extract(hdr.ethernet);
        transition select(hdr.ethernet.ether_type) {
            ETHERTYPE_IPV4: parse_ipv4;
            default: accept;
        }
    }

    state parse_ipv4 {
        packet.extract(hdr.ipv4);
        transition select(hdr.ipv4.proto) {
            IP_PROTO_UDP:  parse_udp;
            IP_PROTO_TCP:  parse_tcp;
            IP_PROTO_ICMP: parse_icmp;
            default: accept;
        }
    }

    state parse_udp {
        packet.extract(hdr.udp);
        transition select(hdr.udp.dport) {
            GTPU_UDP_PORT: parse_gtpu;
            default: accept;
        }
    }

    state parse_gtpu {
        packet.extract(hdr.gtpu);
        // Only G-PDUs without optional fields carry a user packet straight after.
        transition select(hdr.gtpu.msgtype, hdr.gtpu.ex_flag, hdr.gtpu.seq_flag, hdr.gtpu.npdu_flag) {
            (GTPU_GPDU, 0, 0, 0): parse_inner_ipv4;
            default: accept;
        }
    }

    state parse_inner_ipv4 {
        packet.extract(hdr.inner_ipv4);
        transition select(hdr.inner_ipv4.proto) {
            IP_PROTO_UDP:  parse_inner_udp;
            IP_PROTO_TCP:  parse_tcp;
            IP_PROTO_ICMP: parse_icmp;
            default: accept;
        }
    }

    state parse_inner_udp {
        packet.extract(hdr.inner_udp);
        transition accept;
    }

    state parse_tcp {
        packet.extract(hdr.tcp);
        transition accept;
    }

    state parse_icmp {
        packet.extract(hdr.icmp);
        transition accept;
    }
}

control VerifyChecksumImpl(inout parsed_headers_t hdr, inout local_metadata_t meta) {
    apply {
        verify_checksum(hdr.ipv4.isValid(),
            { hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.dscp, hdr.ipv4.ecn,
              hdr.ipv4.total_len, hdr.ipv4.identification, hdr.ipv4.flags,
              hdr.ipv4.frag_offset, hdr.ipv4.ttl, hdr.ipv4.proto,
              hdr.ipv4.src_addr, hdr.ipv4.dst_addr },
            hdr.ipv4.checksum, HashAlgorithm.csum16);
        verify_checksum(hdr.inner_ipv4.isValid(),
            { hdr.inner_ipv4.version, hdr.inner_ipv4.ihl, hdr.inner_ipv4.dscp,
              hdr.inner_ipv4.ecn, hdr.inner_ipv4.total_len, hdr.inner_ipv4.identification,
              hdr.inner_ipv4.flags, hdr.inner_ipv4.frag_offset, hdr.inner_ipv4.ttl,
              hdr.inner_ipv4.proto, hdr.inner_ipv4.src_addr, hdr.inner_ipv4.dst_addr },
            hdr.inner_ipv4.checksum, HashAlgorithm.csum16);
    }
}

control Routing(inout parsed_headers_t hdr, inout local_metadata_t local_meta,
                inout standard_metadata_t std_meta) {
    action drop() {
        mark_to_drop(std_meta);
    }

    action route(port_num_t dst_port, mac_addr_t src_mac, mac_addr_t dst_mac) {
        std_meta.egress_spec = dst_port;
        hdr.ethernet.src_addr = src_mac;
        hdr.ethernet.dst_addr = dst_mac;
        hdr.ipv4.ttl = hdr.ipv4.ttl - 1;
    }

    table routes_v4 {
        key = {
            hdr.ipv4.dst_addr : lpm @name("dst_prefix");
        }
        actions = {
            route;
            drop;
        }
        const default_action = drop();
        size = 1024;
    }

    apply {
        if (hdr.ipv4.ttl <= 1) {
            drop();
        } else {
            routes_v4.apply();
        }
    }
}

control PreQosPipe(inout parsed_headers_t hdr, inout local_metadata_t local_meta,
                   inout standard_metadata_t std_meta) {
    counter(MAX_COUNTERS, CounterType.packets_and_bytes) pre_qos_counter;
    meter(MAX_UES, MeterType.bytes) session_meter;

    action _initialize_metadata() {
        local_meta.session_meter_idx = 0;
        local_meta.application_id = 0;
        local_meta.needs_tunneling = false;
        local_meta.needs_gtpu_decap = false;
        local_meta.needs_buffering = false;
        local_meta.needs_dropping = false;
        local_meta.terminations_hit = false;
        local_meta.ctr_idx = 0;
        local_meta.session_color = 0;
    }

    action set_source_iface(InterfaceType src_iface, Direction direction) {
        local_meta.src_iface = src_iface;
        local_meta.direction = direction;
    }

    action drop_unknown_iface() {
        local_meta.needs_dropping = true;
    }

    table interfaces {
        key = {
            hdr.ipv4.dst_addr : lpm @name("ipv4_dst_prefix");
        }
        actions = {
            set_source_iface;
            drop_unknown_iface;
        }
        const default_action = drop_unknown_iface();
        size = 64;
    }

    action do_drop() {
        mark_to_drop(std_meta);
        exit;
    }

    action set_session_uplink(session_meter_idx_t session_meter_idx) {
        local_meta.needs_gtpu_decap = true;
        local_meta.session_meter_idx = session_meter_idx;
    }

    action set_session_uplink_drop() {
        local_meta.needs_dropping = true;
    }

    table sessions_uplink {
        key = {
            hdr.ipv4.dst_addr : exact @name("n3_address");
            hdr.gtpu.teid     : exact @name("teid");
        }
        actions = {
            set_session_uplink;
            set_session_uplink_drop;
            @defaultonly do_drop;
        }
        const default_action = do_drop();
        size = MAX_UES;
    }

    action set_session_downlink(tunnel_peer_id_t tunnel_peer_id,
                                session_meter_idx_t session_meter_idx) {
        local_meta.tunnel_peer_id = tunnel_peer_id;
        local_meta.session_meter_idx = session_meter_idx;
        local_meta.needs_tunneling = true;
    }

    action set_session_downlink_buff(session_meter_idx_t session_meter_idx) {
        local_meta.needs_buffering = true;
        local_meta.session_meter_idx = session_meter_idx;
    }

    action set_session_downlink_drop() {
        local_meta.needs_dropping = true;
    }

    table sessions_downlink {
        key = {
            hdr.ipv4.dst_addr : exact @name("ue_address");
        }
        actions = {
            set_session_downlink;
            set_session_downlink_drop;
            set_session_downlink_buff;
            @defaultonly do_drop;
        }
        const default_action = do_drop();
        size = MAX_UES;
    }

    action uplink_term_fwd(counter_index_t ctr_idx, bit<6> tc) {
        local_meta.ctr_idx = ctr_idx;
        local_meta.terminations_hit = true;
        hdr.inner_ipv4.dscp = tc;
    }

    action uplink_term_drop(counter_index_t ctr_idx) {
        local_meta.ctr_idx = ctr_idx;
        local_meta.terminations_hit = true;
        local_meta.needs_dropping = true;
    }

    table terminations_uplink {
        key = {
            local_meta.ue_addr        : exact @name("ue_address");
            local_meta.application_id : exact @name("app_id");
        }
        actions = {
            uplink_term_fwd;
            uplink_term_drop;
            @defaultonly do_drop;
        }
        const default_action = do_drop();
        size = MAX_UES;
    }

    action downlink_term_fwd(counter_index_t ctr_idx, teid_t teid, qfi_t qfi) {
        local_meta.ctr_idx = ctr_idx;
        local_meta.terminations_hit = true;
        local_meta.teid = teid;
        local_meta.qfi = qfi;
    }

    action downlink_term_drop(counter_index_t ctr_idx) {
        local_meta.ctr_idx = ctr_idx;
        local_meta.terminations_hit = true;
        local_meta.needs_dropping = true;
    }

    table terminations_downlink {
        key = {
            local_meta.ue_addr        : exact @name("ue_address");
            local_meta.application_id : exact @name("app_id");
        }
        actions = {
            downlink_term_fwd;
            downlink_term_drop;
            @defaultonly do_drop;
        }
        const default_action = do_drop();
        size = MAX_UES;
    }

    action set_app_id(app_id_t app_id) {
        local_meta.application_id = app_id;
    }

    table applications {
        key = {
            local_meta.inet_addr    : lpm   @name("app_ip_addr");
            local_meta.inet_l4_port : range @name("app_l4_port");
            local_meta.ip_proto     : ternary @name("app_ip_proto");
        }
        actions = {
            set_app_id;
        }
        const default_action = set_app_id(0);
        size = MAX_APPS;
    }

    action load_tunnel_param(ipv4_addr_t src_addr, ipv4_addr_t dst_addr, l4_port_t sport) {
        local_meta.tunnel_out_src_ipv4_addr = src_addr;
        local_meta.tunnel_out_dst_ipv4_addr = dst_addr;
        local_meta.tunnel_out_udp_sport = sport;
    }

    table tunnel_peers {
        key = {
            local_meta.tunnel_peer_id : exact @name("tunnel_peer_id");
        }
        actions = {
            load_tunnel_param;
            @defaultonly NoAction;
        }
        const default_action = NoAction();
        size = MAX_TUNNEL_PEERS;
    }

    @hidden
    action gtpu_decap() {
        hdr.ipv4 = hdr.inner_ipv4;
        hdr.inner_ipv4.setInvalid();
        hdr.udp = hdr.inner_udp;
        hdr.inner_udp.setInvalid();
        hdr.gtpu.setInvalid();
    }

    @hidden
    action gtpu_encap() {
        hdr.inner_ipv4 = hdr.ipv4;
        hdr.inner_udp = hdr.udp;
        hdr.udp.setValid();
        hdr.udp.sport = local_meta.tunnel_out_udp_sport;
        hdr.udp.dport = GTPU_UDP_PORT;
        hdr.udp.len = hdr.inner_ipv4.total_len + (UDP_HDR_SIZE + GTPU_HDR_SIZE);
        hdr.udp.checksum = 0;
        hdr.gtpu.setValid();
        hdr.gtpu.version = GTP_V1;
        hdr.gtpu.pt = GTP_PROTOCOL_TYPE_GTP;
        hdr.gtpu.spare = 0;
        hdr.gtpu.ex_flag = 0;
        hdr.gtpu.seq_flag = 0;
        hdr.gtpu.npdu_flag = 0;
        hdr.gtpu.msgtype = GTPU_GPDU;
        hdr.gtpu.msglen = hdr.inner_ipv4.total_len;
        hdr.gtpu.teid = local_meta.teid;
        hdr.ipv4.setValid();
        hdr.ipv4.version = 4;
        hdr.ipv4.ihl = IPV4_MIN_IHL;
        hdr.ipv4.dscp = 0;
        hdr.ipv4.ecn = 0;
        hdr.ipv4.total_len = hdr.inner_ipv4.total_len
            + (IPV4_HDR_SIZE + UDP_HDR_SIZE + GTPU_HDR_SIZE);
        hdr.ipv4.identification = 0x1513;
        hdr.ipv4.flags = 0;
        hdr.ipv4.frag_offset = 0;
        hdr.ipv4.ttl = DEFAULT_IPV4_TTL;
        hdr.ipv4.proto = IP_PROTO_UDP;
        hdr.ipv4.src_addr = local_meta.tunnel_out_src_ipv4_addr;
        hdr.ipv4.dst_addr = local_meta.tunnel_out_dst_ipv4_addr;
        hdr.ipv4.checksum = 0;
    }

    Routing() routing;

    apply {
        _initialize_metadata();
        if (!hdr.ipv4.isValid()) {
            do_drop();
        }
        interfaces.apply();
        if (local_meta.needs_dropping) {
            do_drop();
        }

        if (local_meta.direction == Direction.UPLINK) {
            if (!hdr.inner_ipv4.isValid()) {
                do_drop();
            }
            local_meta.ue_addr = hdr.inner_ipv4.src_addr;
            local_meta.inet_addr = hdr.inner_ipv4.dst_addr;
            local_meta.ip_proto = hdr.inner_ipv4.proto;
            if (hdr.inner_udp.isValid()) {
                local_meta.ue_l4_port = hdr.inner_udp.sport;
                local_meta.inet_l4_port = hdr.inner_udp.dport;
            } else if (hdr.tcp.isValid()) {
                local_meta.ue_l4_port = hdr.tcp.sport;
                local_meta.inet_l4_port = hdr.tcp.dport;
            } else {
                local_meta.ue_l4_port = 0;
                local_meta.inet_l4_port = 0;
            }
            sessions_uplink.apply();
        } else if (local_meta.direction == Direction.DOWNLINK) {
            local_meta.ue_addr = hdr.ipv4.dst_addr;
            local_meta.inet_addr = hdr.ipv4.src_addr;
            local_meta.ip_proto = hdr.ipv4.proto;
            if (hdr.udp.isValid()) {
                local_meta.ue_l4_port = hdr.udp.dport;
                local_meta.inet_l4_port = hdr.udp.sport;
            } else if (hdr.tcp.isValid()) {
                local_meta.ue_l4_port = hdr.tcp.dport;
                local_meta.inet_l4_port = hdr.tcp.sport;
            } else {
                local_meta.ue_l4_port = 0;
                local_meta.inet_l4_port = 0;
            }
            sessions_downlink.apply();
            tunnel_peers.apply();
        } else {
            do_drop();
        }

        applications.apply();

        if (local_meta.direction == Direction.UPLINK) {
            terminations_uplink.apply();
        } else {
            terminations_downlink.apply();
        }

        if (local_meta.terminations_hit) {
            pre_qos_counter.count(local_meta.ctr_idx);
        }

        if (local_meta.needs_dropping) {
            do_drop();
        }

        if (local_meta.needs_buffering) {
            // The control plane buffers; it only needs to hear the UE address.
            digest<ddn_digest_t>(1, { local_meta.ue_addr });
            do_drop();
        }

        session_meter.execute_meter<bit<2>>(local_meta.session_meter_idx, local_meta.session_color);
        if (local_meta.session_color == 2) {
            do_drop();
        }

        if (local_meta.needs_gtpu_decap) {
            gtpu_decap();
        }
        if (local_meta.needs_tunneling) {
            gtpu_encap();
        }

        routing.apply(hdr, local_meta, std_meta);
    }
}

control PostQosPipe(inout parsed_headers_t hdr, inout local_metadata_t local_meta,
                    inout standard_metadata_t std_meta) {
    counter(MAX_COUNTERS, CounterType.packets_and_bytes) post_qos_counter;

    apply {
        post_qos_counter.count(local_meta.ctr_idx);
    }
}

control ComputeChecksumImpl(inout parsed_headers_t hdr, inout local_metadata_t local_meta) {
    apply {
        update_checksum(hdr.ipv4.isValid(),
            { hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.dscp, hdr.ipv4.ecn,
              hdr.ipv4.total_len, hdr.ipv4.identification, hdr.ipv4.flags,
              hdr.ipv4.frag_offset, hdr.ipv4.ttl, hdr.ipv4.proto,
              hdr.ipv4.src_addr, hdr.ipv4.dst_addr },
            hdr.ipv4.checksum, HashAlgorithm.csum16);
        update_checksum(hdr.inner_ipv4.isValid(),
            { hdr.inner_ipv4.version, hdr.inner_ipv4.ihl, hdr.inner_ipv4.dscp,
              hdr.inner_ipv4.ecn, hdr.inner_ipv4.total_len, hdr.inner_ipv4.identification,
              hdr.inner_ipv4.flags, hdr.inner_ipv4.frag_offset, hdr.inner_ipv4.ttl,
              hdr.inner_ipv4.proto, hdr.inner_ipv4.src_addr, hdr.inner_ipv4.dst_addr },
            hdr.inner_ipv4.checksum, HashAlgorithm.csum16);
    }
}

control DeparserImpl(packet_out packet, in parsed_headers_t hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.ipv4);
        packet.emit(hdr.udp);
        packet.emit(hdr.gtpu);
        packet.emit(hdr.inner_ipv4);
        packet.emit(hdr.inner_udp);
        packet.emit(hdr.tcp);
        packet.emit(hdr.icmp);
    }
}

V1Switch(ParserImpl(), VerifyChecksumImpl(), PreQosPipe(), PostQosPipe(),
         ComputeChecksumImpl(), DeparserImpl()) main;
