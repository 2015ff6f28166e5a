// Corpus 305: in-band network telemetry in the style of GEANT's INT for BMv2: INT-MD over
// UDP signalled by a DSCP value; a source (per ingress port and flow) inserts the shim and
// INT header, every hop (transit) pushes the metadata its instruction bits ask for (switch
// id, port ids, hop latency, queue occupancy: one table with const entries per 4-bit mask
// nibble, as GEANT's int_inst tables), earlier hops' data parsed as a varbit; the sink
// (per egress port) sends the packet on without INT and an I2E clone to the collector with
// a telemetry report header, a sequence number from a register, and this hop's metadata.
#include <core.p4>
#include <v1model.p4>

#define INT_DSCP 0x17
#define REPORT_MIRROR_SESSION_ID 500
#define INT_SHIM_HEADER_WORDS 3
#define MAX_INT_DATA_BITS 2048
#define PKT_INSTANCE_TYPE_NORMAL 0
#define PKT_INSTANCE_TYPE_INGRESS_CLONE 1

const bit<16> ETH_TYPE_IPV4 = 0x0800;
const bit<8>  IP_PROTO_UDP = 17;
const bit<8>  IP_PROTO_TCP = 6;

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

header udp_t {
    bit<16> src_port;
    bit<16> dst_port;
    bit<16> len;
    bit<16> checksum;
}

// INT over UDP: a shim says how many 4-byte words of INT follow the UDP header.
header int_shim_t {
    bit<8> int_type;
    bit<8> rsvd1;
    bit<8> len;
    bit<6> dscp;
    bit<2> rsvd2;
}

header int_header_t {
    bit<4>  ver;
    bit<2>  rep;
    bit<1>  c;
    bit<1>  e;
    bit<1>  m;
    bit<7>  rsvd1;
    bit<3>  rsvd2;
    bit<5>  hop_metadata_len;
    bit<8>  remaining_hop_cnt;
    bit<4>  instruction_mask_0003;
    bit<4>  instruction_mask_0407;
    bit<4>  instruction_mask_0811;
    bit<4>  instruction_mask_1215;
    bit<16> rsvd3;
}

header int_switch_id_t {
    bit<32> switch_id;
}

header int_port_ids_t {
    bit<16> ingress_port_id;
    bit<16> egress_port_id;
}

header int_hop_latency_t {
    bit<32> hop_latency;
}

header int_q_occupancy_t {
    bit<8>  q_id;
    bit<24> q_occupancy;
}

// What earlier hops pushed, kept as it came.
header int_data_t {
    varbit<MAX_INT_DATA_BITS> data;
}

header telemetry_report_t {
    bit<4>  ver;
    bit<4>  len;
    bit<3>  nproto;
    bit<6>  rep_md_bits;
    bit<1>  d;
    bit<1>  q;
    bit<1>  f;
    bit<6>  rsvd;
    bit<6>  hw_id;
    bit<32> switch_id;
    bit<32> seq_no;
    bit<32> ingress_tstamp;
}

struct headers {
    telemetry_report_t report;
    ethernet_t         ethernet;
    ipv4_t             ipv4;
    udp_t              udp;
    int_shim_t         int_shim;
    int_header_t       int_header;
    int_switch_id_t    int_switch_id;
    int_port_ids_t     int_port_ids;
    int_hop_latency_t  int_hop_latency;
    int_q_occupancy_t  int_q_occupancy;
    int_data_t         int_data;
}

struct int_metadata_t {
    bool    source;
    bool    sink;
    bit<32> switch_id;
    bit<8>  new_words;
    bit<16> new_bytes;
    bit<8>  max_hop;
    bit<5>  hop_ml;
    bit<4>  ins_mask0003;
    bit<4>  ins_mask0407;
}

struct metadata {
    int_metadata_t int_meta;
    @field_list(1)
    bit<16> sink_egress_port;
    @field_list(1)
    bit<16> sink_ingress_port;
}

parser ParserImpl(packet_in packet, out headers hdr, inout metadata meta,
                  inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.ethernet);
        transition select(hdr.ethernet.ether_type) {
            ETH_TYPE_IPV4: parse_ipv4;
            default: accept;
        }
    }

    state parse_ipv4 {
        packet.extract(hdr.ipv4);
        transition select(hdr.ipv4.protocol) {
            IP_PROTO_UDP: parse_udp;
            default: accept;
        }
    }

    state parse_udp {
        packet.extract(hdr.udp);
        transition select(hdr.ipv4.dscp) {
            INT_DSCP: parse_int_shim;
            default: accept;
        }
    }

    state parse_int_shim {
        packet.extract(hdr.int_shim);
        transition parse_int_header;
    }

    state parse_int_header {
        packet.extract(hdr.int_header);
        // Everything after shim and header, in bits.
        packet.extract(hdr.int_data,
                       ((bit<32>) (hdr.int_shim.len - INT_SHIM_HEADER_WORDS)) * 32);
        transition accept;
    }
}

control VerifyChecksumImpl(inout headers hdr, inout metadata meta) {
    apply { }
}

control Forward(inout headers hdr, inout metadata meta,
                inout standard_metadata_t standard_metadata) {
    action drop() {
        mark_to_drop(standard_metadata);
    }

    action send_to_port(bit<9> port, bit<48> dst_mac) {
        standard_metadata.egress_spec = port;
        hdr.ethernet.src_addr = hdr.ethernet.dst_addr;
        hdr.ethernet.dst_addr = dst_mac;
    }

    table tb_forward {
        key = {
            hdr.ipv4.dst_addr : lpm;
        }
        actions = {
            send_to_port;
            drop;
        }
        const default_action = drop();
    }

    apply {
        tb_forward.apply();
    }
}

control IntIngress(inout headers hdr, inout metadata meta,
                   inout standard_metadata_t standard_metadata) {
    action activate_source() {
        meta.int_meta.source = true;
    }

    table tb_activate_source {
        key = {
            standard_metadata.ingress_port : exact;
        }
        actions = {
            activate_source;
            @defaultonly NoAction;
        }
        const default_action = NoAction();
        size = 255;
    }

    action configure_source(bit<8> max_hop, bit<5> hop_metadata_len,
                            bit<4> ins_mask0003, bit<4> ins_mask0407) {
        meta.int_meta.max_hop = max_hop;
        meta.int_meta.hop_ml = hop_metadata_len;
        meta.int_meta.ins_mask0003 = ins_mask0003;
        meta.int_meta.ins_mask0407 = ins_mask0407;
    }

    action not_a_monitored_flow() {
        meta.int_meta.source = false;
    }

    table tb_int_source {
        key = {
            hdr.ipv4.src_addr : ternary;
            hdr.ipv4.dst_addr : ternary;
            hdr.udp.src_port  : ternary;
            hdr.udp.dst_port  : ternary;
        }
        actions = {
            configure_source;
            @defaultonly not_a_monitored_flow;
        }
        const default_action = not_a_monitored_flow();
        size = 127;
    }

    action configure_sink() {
        meta.int_meta.sink = true;
        meta.sink_egress_port = (bit<16>) standard_metadata.egress_spec;
        meta.sink_ingress_port = (bit<16>) standard_metadata.ingress_port;
        clone_preserving_field_list(CloneType.I2E, REPORT_MIRROR_SESSION_ID, 1);
    }

    table tb_int_sink {
        key = {
            standard_metadata.egress_spec : exact @name("egress_port");
        }
        actions = {
            configure_sink;
            @defaultonly NoAction;
        }
        const default_action = NoAction();
        size = 255;
    }

    apply {
        meta.int_meta.source = false;
        meta.int_meta.sink = false;
        if (hdr.udp.isValid() && !hdr.int_header.isValid()) {
            tb_activate_source.apply();
            if (meta.int_meta.source) {
                tb_int_source.apply();
            }
        }
        if (hdr.int_header.isValid()) {
            tb_int_sink.apply();
        }
    }
}

control IngressImpl(inout headers hdr, inout metadata meta,
                    inout standard_metadata_t standard_metadata) {
    Forward() forward;
    IntIngress() int_ingress;

    apply {
        if (hdr.ipv4.isValid()) {
            forward.apply(hdr, meta, standard_metadata);
            int_ingress.apply(hdr, meta, standard_metadata);
        } else {
            mark_to_drop(standard_metadata);
        }
    }
}

control IntSource(inout headers hdr, inout metadata meta,
                  inout standard_metadata_t standard_metadata) {
    apply {
        hdr.int_shim.setValid();
        hdr.int_shim.int_type = 1;
        hdr.int_shim.rsvd1 = 0;
        hdr.int_shim.len = INT_SHIM_HEADER_WORDS;
        hdr.int_shim.dscp = hdr.ipv4.dscp;
        hdr.int_shim.rsvd2 = 0;

        hdr.int_header.setValid();
        hdr.int_header.ver = 1;
        hdr.int_header.rep = 0;
        hdr.int_header.c = 0;
        hdr.int_header.e = 0;
        hdr.int_header.m = 0;
        hdr.int_header.rsvd1 = 0;
        hdr.int_header.rsvd2 = 0;
        hdr.int_header.hop_metadata_len = meta.int_meta.hop_ml;
        hdr.int_header.remaining_hop_cnt = meta.int_meta.max_hop;
        hdr.int_header.instruction_mask_0003 = meta.int_meta.ins_mask0003;
        hdr.int_header.instruction_mask_0407 = meta.int_meta.ins_mask0407;
        hdr.int_header.instruction_mask_0811 = 0;
        hdr.int_header.instruction_mask_1215 = 0;
        hdr.int_header.rsvd3 = 0;

        hdr.ipv4.dscp = INT_DSCP;
        hdr.ipv4.total_len = hdr.ipv4.total_len + 12;
        hdr.udp.len = hdr.udp.len + 12;
    }
}

control IntTransit(inout headers hdr, inout metadata meta,
                   inout standard_metadata_t standard_metadata) {
    action configure_transit(bit<32> switch_id) {
        meta.int_meta.switch_id = switch_id;
    }

    table tb_int_transit {
        actions = {
            configure_transit;
            @defaultonly NoAction;
        }
        default_action = NoAction();
    }

    @hidden
    action int_set_header_0() {
        hdr.int_switch_id.setValid();
        hdr.int_switch_id.switch_id = meta.int_meta.switch_id;
    }

    @hidden
    action int_set_header_1() {
        hdr.int_port_ids.setValid();
        // A report clone records the ports of the packet it copies.
        if (standard_metadata.instance_type == PKT_INSTANCE_TYPE_INGRESS_CLONE) {
            hdr.int_port_ids.ingress_port_id = meta.sink_ingress_port;
            hdr.int_port_ids.egress_port_id = meta.sink_egress_port;
        } else {
            hdr.int_port_ids.ingress_port_id = (bit<16>) standard_metadata.ingress_port;
            hdr.int_port_ids.egress_port_id = (bit<16>) standard_metadata.egress_port;
        }
    }

    @hidden
    action int_set_header_2() {
        hdr.int_hop_latency.setValid();
        hdr.int_hop_latency.hop_latency = (bit<32>) standard_metadata.deq_timedelta;
    }

    @hidden
    action int_set_header_3() {
        hdr.int_q_occupancy.setValid();
        hdr.int_q_occupancy.q_id = 0;
        hdr.int_q_occupancy.q_occupancy = (bit<24>) standard_metadata.deq_qdepth;
    }

    // One action per value of the first instruction nibble (bit 0 is the MSB).
    action int_set_header_0003_i0() { }
    action int_set_header_0003_i1() { int_set_header_3(); }
    action int_set_header_0003_i2() { int_set_header_2(); }
    action int_set_header_0003_i3() { int_set_header_3(); int_set_header_2(); }
    action int_set_header_0003_i4() { int_set_header_1(); }
    action int_set_header_0003_i5() { int_set_header_3(); int_set_header_1(); }
    action int_set_header_0003_i6() { int_set_header_2(); int_set_header_1(); }
    action int_set_header_0003_i7() { int_set_header_3(); int_set_header_2(); int_set_header_1(); }
    action int_set_header_0003_i8() { int_set_header_0(); }
    action int_set_header_0003_i9() { int_set_header_3(); int_set_header_0(); }
    action int_set_header_0003_i10() { int_set_header_2(); int_set_header_0(); }
    action int_set_header_0003_i11() { int_set_header_3(); int_set_header_2(); int_set_header_0(); }
    action int_set_header_0003_i12() { int_set_header_1(); int_set_header_0(); }
    action int_set_header_0003_i13() { int_set_header_3(); int_set_header_1(); int_set_header_0(); }
    action int_set_header_0003_i14() { int_set_header_2(); int_set_header_1(); int_set_header_0(); }
    action int_set_header_0003_i15() {
        int_set_header_3(); int_set_header_2(); int_set_header_1(); int_set_header_0();
    }

    table tb_int_inst_0003 {
        key = {
            hdr.int_header.instruction_mask_0003 : exact;
        }
        actions = {
            int_set_header_0003_i0;
            int_set_header_0003_i1;
            int_set_header_0003_i2;
            int_set_header_0003_i3;
            int_set_header_0003_i4;
            int_set_header_0003_i5;
            int_set_header_0003_i6;
            int_set_header_0003_i7;
            int_set_header_0003_i8;
            int_set_header_0003_i9;
            int_set_header_0003_i10;
            int_set_header_0003_i11;
            int_set_header_0003_i12;
            int_set_header_0003_i13;
            int_set_header_0003_i14;
            int_set_header_0003_i15;
        }
        const default_action = int_set_header_0003_i0();
        const entries = {
            0x0 : int_set_header_0003_i0();
            0x1 : int_set_header_0003_i1();
            0x2 : int_set_header_0003_i2();
            0x3 : int_set_header_0003_i3();
            0x4 : int_set_header_0003_i4();
            0x5 : int_set_header_0003_i5();
            0x6 : int_set_header_0003_i6();
            0x7 : int_set_header_0003_i7();
            0x8 : int_set_header_0003_i8();
            0x9 : int_set_header_0003_i9();
            0xA : int_set_header_0003_i10();
            0xB : int_set_header_0003_i11();
            0xC : int_set_header_0003_i12();
            0xD : int_set_header_0003_i13();
            0xE : int_set_header_0003_i14();
            0xF : int_set_header_0003_i15();
        }
    }

    apply {
        tb_int_transit.apply();
        if (hdr.int_header.remaining_hop_cnt == 0) {
            // Too many hops: say so and push nothing.
            hdr.int_header.e = 1;
        } else {
            hdr.int_header.remaining_hop_cnt = hdr.int_header.remaining_hop_cnt - 1;
            tb_int_inst_0003.apply();
            meta.int_meta.new_words = (bit<8>) hdr.int_header.hop_metadata_len;
            meta.int_meta.new_bytes = ((bit<16>) hdr.int_header.hop_metadata_len) << 2;
            hdr.int_shim.len = hdr.int_shim.len + meta.int_meta.new_words;
            hdr.ipv4.total_len = hdr.ipv4.total_len + meta.int_meta.new_bytes;
            hdr.udp.len = hdr.udp.len + meta.int_meta.new_bytes;
        }
    }
}

control IntSink(inout headers hdr, inout metadata meta,
                inout standard_metadata_t standard_metadata) {
    register<bit<32>>(1) report_seq_no;

    action remove_int() {
        bit<16> int_bytes = ((bit<16>) hdr.int_shim.len) << 2;
        hdr.ipv4.dscp = hdr.int_shim.dscp;
        hdr.ipv4.total_len = hdr.ipv4.total_len - int_bytes;
        hdr.udp.len = hdr.udp.len - int_bytes;
        hdr.int_shim.setInvalid();
        hdr.int_header.setInvalid();
        hdr.int_switch_id.setInvalid();
        hdr.int_port_ids.setInvalid();
        hdr.int_hop_latency.setInvalid();
        hdr.int_q_occupancy.setInvalid();
        hdr.int_data.setInvalid();
    }

    action add_report() {
        bit<32> seq_no;
        report_seq_no.read(seq_no, 0);
        report_seq_no.write(0, seq_no + 1);
        hdr.report.setValid();
        hdr.report.ver = 1;
        hdr.report.len = 4;
        hdr.report.nproto = 0;
        hdr.report.rep_md_bits = 0;
        hdr.report.d = 0;
        hdr.report.q = 0;
        hdr.report.f = 1;
        hdr.report.rsvd = 0;
        hdr.report.hw_id = 1;
        hdr.report.switch_id = meta.int_meta.switch_id;
        hdr.report.seq_no = seq_no;
        hdr.report.ingress_tstamp = (bit<32>) standard_metadata.ingress_global_timestamp;
    }

    apply {
        if (standard_metadata.instance_type == PKT_INSTANCE_TYPE_INGRESS_CLONE) {
            add_report();
        } else {
            remove_int();
        }
    }
}

control EgressImpl(inout headers hdr, inout metadata meta,
                   inout standard_metadata_t standard_metadata) {
    IntSource() int_source;
    IntTransit() int_transit;
    IntSink() int_sink;

    apply {
        if (meta.int_meta.source && standard_metadata.instance_type == PKT_INSTANCE_TYPE_NORMAL) {
            int_source.apply(hdr, meta, standard_metadata);
        }
        if (hdr.int_header.isValid()) {
            int_transit.apply(hdr, meta, standard_metadata);
            if (meta.int_meta.sink ||
                standard_metadata.instance_type == PKT_INSTANCE_TYPE_INGRESS_CLONE) {
                int_sink.apply(hdr, meta, standard_metadata);
            }
        }
    }
}

control ComputeChecksumImpl(inout headers hdr, inout metadata meta) {
    apply {
        update_checksum(hdr.ipv4.isValid(),
            { hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.dscp, hdr.ipv4.ecn,
              hdr.ipv4.total_len, hdr.ipv4.identification, hdr.ipv4.flags,
              hdr.ipv4.frag_offset, hdr.ipv4.ttl, hdr.ipv4.protocol,
              hdr.ipv4.src_addr, hdr.ipv4.dst_addr },
            hdr.ipv4.hdr_checksum, HashAlgorithm.csum16);
    }
}

control DeparserImpl(packet_out packet, in headers hdr) {
    apply {
        packet.emit(hdr.report);
        packet.emit(hdr.ethernet);
        packet.emit(hdr.ipv4);
        packet.emit(hdr.udp);
        packet.emit(hdr.int_shim);
        packet.emit(hdr.int_header);
        packet.emit(hdr.int_switch_id);
        packet.emit(hdr.int_port_ids);
        packet.emit(hdr.int_hop_latency);
        packet.emit(hdr.int_q_occupancy);
        packet.emit(hdr.int_data);
    }
}

V1Switch(ParserImpl(), VerifyChecksumImpl(), IngressImpl(), EgressImpl(),
         ComputeChecksumImpl(), DeparserImpl()) main;
