// Corpus 325: ONOS's basic pipeline style: a single wide ternary table0 (port, MACs,
// EtherType, IPv4 addresses and protocol, L4 ports) with set_egress_port, send_to_cpu,
// set_next_id and drop; a next-hop table for set_next_id; packet I/O headers; ingress and
// egress port counters; and a host meter that marks by colour.
#include <core.p4>
#include <v1model.p4>

#define MAX_PORTS 256
#define CPU_PORT 255

typedef bit<9> port_t;
typedef bit<16> next_id_t;

const bit<16> ETH_TYPE_IPV4 = 0x0800;
const bit<8>  IP_PROTO_TCP = 6;
const bit<8>  IP_PROTO_UDP = 17;

@controller_header("packet_out")
header packet_out_header_t {
    port_t egress_port;
    bit<7> _padding;
}

@controller_header("packet_in")
header packet_in_header_t {
    port_t ingress_port;
    bit<7> _padding;
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
    bit<16> len;
    bit<16> identification;
    bit<3>  flags;
    bit<13> frag_offset;
    bit<8>  ttl;
    bit<8>  protocol;
    bit<16> hdr_checksum;
    bit<32> src_addr;
    bit<32> dst_addr;
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
    bit<16> length_;
    bit<16> checksum;
}

struct headers_t {
    packet_out_header_t packet_out;
    packet_in_header_t  packet_in;
    ethernet_t          ethernet;
    ipv4_t              ipv4;
    tcp_t               tcp;
    udp_t               udp;
}

struct local_metadata_t {
    bit<16>   l4_src_port;
    bit<16>   l4_dst_port;
    next_id_t next_id;
    bit<2>    host_color;
}

parser parser_impl(packet_in packet, out headers_t hdr,
                   inout local_metadata_t local_metadata,
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
            ETH_TYPE_IPV4: parse_ipv4;
            default: accept;
        }
    }

    state parse_ipv4 {
        packet.extract(hdr.ipv4);
        transition select(hdr.ipv4.protocol) {
            IP_PROTO_TCP: parse_tcp;
            IP_PROTO_UDP: parse_udp;
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
}

control verify_checksum_control(inout headers_t hdr, inout local_metadata_t local_metadata) {
    apply { }
}

control port_counters_ingress(inout headers_t hdr,
                              inout standard_metadata_t standard_metadata) {
    counter(MAX_PORTS, CounterType.packets) ingress_port_counter;

    apply {
        ingress_port_counter.count((bit<32>) standard_metadata.ingress_port);
    }
}

control port_counters_egress(inout headers_t hdr,
                             inout standard_metadata_t standard_metadata) {
    counter(MAX_PORTS, CounterType.packets) egress_port_counter;

    apply {
        egress_port_counter.count((bit<32>) standard_metadata.egress_port);
    }
}

control table0_control(inout headers_t hdr,
                       inout local_metadata_t local_metadata,
                       inout standard_metadata_t standard_metadata) {
    direct_counter(CounterType.packets_and_bytes) table0_counter;

    action set_egress_port(port_t port) {
        standard_metadata.egress_spec = port;
    }

    action send_to_cpu() {
        standard_metadata.egress_spec = CPU_PORT;
    }

    action set_next_id(next_id_t next_id) {
        local_metadata.next_id = next_id;
    }

    action _drop() {
        mark_to_drop(standard_metadata);
    }

    table table0 {
        key = {
            standard_metadata.ingress_port : ternary;
            hdr.ethernet.src_addr          : ternary;
            hdr.ethernet.dst_addr          : ternary;
            hdr.ethernet.ether_type        : ternary;
            hdr.ipv4.src_addr              : ternary;
            hdr.ipv4.dst_addr              : ternary;
            hdr.ipv4.protocol              : ternary;
            local_metadata.l4_src_port     : ternary;
            local_metadata.l4_dst_port     : ternary;
        }
        actions = {
            set_egress_port;
            send_to_cpu;
            set_next_id;
            _drop;
        }
        const default_action = _drop();
        counters = table0_counter;
    }

    apply {
        table0.apply();
    }
}

control wcmp_like_control(inout headers_t hdr,
                          inout local_metadata_t local_metadata,
                          inout standard_metadata_t standard_metadata) {
    action set_next_hop(port_t port, bit<48> dmac) {
        standard_metadata.egress_spec = port;
        hdr.ethernet.dst_addr = dmac;
    }

    table next_hop {
        key = {
            local_metadata.next_id : exact;
        }
        actions = {
            set_next_hop;
            @defaultonly NoAction;
        }
        const default_action = NoAction();
    }

    apply {
        if (local_metadata.next_id != 0) {
            next_hop.apply();
        }
    }
}

control host_meter_control(inout headers_t hdr,
                           inout local_metadata_t local_metadata,
                           inout standard_metadata_t standard_metadata) {
    direct_meter<bit<2>>(MeterType.bytes) host_meter;

    action read_meter() {
        host_meter.read(local_metadata.host_color);
    }

    table host_meter_table {
        key = {
            hdr.ethernet.src_addr : lpm;
        }
        actions = {
            read_meter;
            NoAction;
        }
        meters = host_meter;
        default_action = NoAction();
    }

    apply {
        local_metadata.host_color = 0;
        host_meter_table.apply();
        if (local_metadata.host_color == 2) {
            mark_to_drop(standard_metadata);
        }
    }
}

control ingress(inout headers_t hdr, inout local_metadata_t local_metadata,
                inout standard_metadata_t standard_metadata) {
    apply {
        local_metadata.next_id = 0;
        port_counters_ingress.apply(hdr, standard_metadata);
        if (hdr.packet_out.isValid()) {
            standard_metadata.egress_spec = hdr.packet_out.egress_port;
            hdr.packet_out.setInvalid();
        } else {
            table0_control.apply(hdr, local_metadata, standard_metadata);
            wcmp_like_control.apply(hdr, local_metadata, standard_metadata);
            host_meter_control.apply(hdr, local_metadata, standard_metadata);
        }
    }
}

control egress(inout headers_t hdr, inout local_metadata_t local_metadata,
               inout standard_metadata_t standard_metadata) {
    apply {
        port_counters_egress.apply(hdr, standard_metadata);
        if (standard_metadata.egress_port == CPU_PORT) {
            hdr.packet_in.setValid();
            hdr.packet_in.ingress_port = standard_metadata.ingress_port;
            hdr.packet_in._padding = 0;
        }
    }
}

control compute_checksum_control(inout headers_t hdr, inout local_metadata_t local_metadata) {
    apply { }
}

control deparser(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.packet_in);
        packet.emit(hdr.ethernet);
        packet.emit(hdr.ipv4);
        packet.emit(hdr.tcp);
        packet.emit(hdr.udp);
    }
}

V1Switch(parser_impl(), verify_checksum_control(), ingress(), egress(),
         compute_checksum_control(), deparser()) main;
