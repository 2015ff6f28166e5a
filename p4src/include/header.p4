// Wire headers, the parsed-header struct and the pipeline's local metadata.
#ifndef FABRIC_HEADER_P4
#define FABRIC_HEADER_P4

#include "define.p4"
#include "size.p4"

// Prepended to packets sent to the controller.
@controller_header("packet_in")
header packet_in_header_t {
    port_num_t ingress_port;
    bit<7>     _pad0;
    bit<8>     reason;
}

// Prepended by the controller to packets it sends out of a given port.
@controller_header("packet_out")
header packet_out_header_t {
    port_num_t egress_port;
    bit<7>     _pad0;
}

header ethernet_t {
    mac_addr_t dst_addr;
    mac_addr_t src_addr;
    bit<16>    ether_type;
}

header vlan_tag_t {
    bit<3>    pcp;
    bit<1>    dei;
    vlan_id_t vlan_id;
    bit<16>   ether_type;
}

header ipv4_t {
    bit<4>      version;
    bit<4>      ihl;
    dscp_t      dscp;
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

header tcp_t {
    l4_port_t src_port;
    l4_port_t dst_port;
    bit<32>   seq_no;
    bit<32>   ack_no;
    bit<4>    data_offset;
    bit<4>    res;
    bit<8>    flags;
    bit<16>   window;
    bit<16>   checksum;
    bit<16>   urgent_ptr;
}

header udp_t {
    l4_port_t src_port;
    l4_port_t dst_port;
    bit<16>   length;
    bit<16>   checksum;
}

// INT shim for TCP/UDP (NPT 0: the original DSCP travels in the shim).
header int_shim_t {
    bit<4> int_type;
    bit<2> npt;
    bit<2> rsvd0;
    bit<8> len;        // INT-MD header plus metadata, in 4-byte words
    bit<8> rsvd1;
    dscp_t dscp;       // original DSCP of the packet
    bit<2> rsvd2;
}

// INT-MD metadata header.
header int_md_t {
    bit<4>  ver;
    bit<1>  d;
    bit<1>  e;
    bit<1>  m;
    bit<12> rsvd;
    bit<5>  hop_ml;
    bit<8>  remaining_hop_cnt;
    bit<16> instruction_mask;
    bit<16> domain_id;
    bit<16> ds_instruction;
    bit<16> ds_flags;
}

// One 4-byte word of the INT metadata stack (the stack is a list of words).
header int_word_t {
    bit<32> data;
}

// UEC PDS prologue; for CONTROL packets next_hdr is the control type.
header pds_prologue_t {
    bit<5> pds_type;
    bit<4> next_hdr;
    bit<7> flags;
}

// Rest of a PDS CONTROL packet. For CREDIT the 32-bit payload is a
// marked flag, 7 reserved bits and a 24-bit credit amount.
header pds_control_t {
    bit<16> probe_opaque;
    bit<32> psn;
    bit<16> spdcid;
    bit<16> dpdcid;
    bit<1>  credit_marked;
    bit<7>  credit_rsvd;
    bit<24> credit;
}

// Telemetry Report v2.0 group header.
header report_group_t {
    bit<4>    ver;
    bit<6>    hw_id;
    bit<22>   seq_no;
    node_id_t node_id;
}

// Telemetry Report v2.0 individual report header.
header report_individual_t {
    bit<4> rep_type;
    bit<4> in_type;
    bit<8> report_length;
    bit<8> md_length;
    bit<1> d;
    bit<1> q;
    bit<1> f;
    bit<1> i;
    bit<4> rsvd;
}

// Telemetry Report v2.0 INT report main contents (before the metadata).
header report_int_t {
    bit<16> rep_md_bits;
    bit<16> domain_id;
    bit<16> ds_md_bits;
    bit<16> ds_md_status;
}

struct headers_t {
    packet_out_header_t packet_out;
    packet_in_header_t  packet_in;
    // Encapsulation of a telemetry report (valid only in report copies).
    ethernet_t          report_ethernet;
    ipv4_t              report_ipv4;
    udp_t               report_udp;
    report_group_t      report_group;
    report_individual_t report_individual;
    report_int_t        report_int;
    // The packet itself.
    ethernet_t          ethernet;
    vlan_tag_t          vlan;
    ipv4_t              ipv4;
    tcp_t               tcp;
    udp_t               udp;
    int_shim_t          int_shim;
    int_md_t            int_md;
    int_word_t[INT_STACK_WORDS] int_stack;
    pds_prologue_t      pds;
    pds_control_t       pds_control;
    // Never emitted: carry a sink's INT headers and stack, as they left its
    // transit stage, into its report copy (which embeds them again).
    int_shim_t          saved_shim;
    int_md_t            saved_md;
    int_word_t[INT_STACK_WORDS] saved_stack;
}

struct fabric_metadata_t {
    bool           from_cpu;
    bit<8>         punt_reason;
    partition_id_t partition;
    l4_port_t      l4_src_port;
    l4_port_t      l4_dst_port;
    bit<8>         int_words_left;   // parser loop counter
    bool           dropped;          // dropped in ingress, counted per partition
    partition_id_t port_partition;   // partition an egress port is restricted to
    vlan_id_t      partition_tag;    // VID of the tag the packet leaves with (PartitionTag)
    bool           border_egress;    // leaves a border port: border_tag_out said its tag
    bool           border_push;      // ... tagged with partition_tag (else untagged)
    // Multipath.
    group_id_t     group_id;
    bit<2>         mp_mode;
    bit<3>         mp_class;         // MP_CLASS_*: what the packet carries
    bit<16>        mp_select;
    // Congestion state observed on a port by earlier packets.
    queue_depth_t  observed_depth;
    // Trimming, decided in ingress and applied in egress.
    queue_depth_t  ecn_threshold;
    queue_depth_t  trim_threshold;
    bool           trim;
    bit<16>        trim_length;
    dscp_t         trim_dscp;
    bit<3>         trim_priority;
    // In the feedback queue class (FeedbackQueue), not its partition's data queue.
    bool           feedback;
    // INT.
    bool           int_node;
    node_id_t      int_node_id;
    dscp_t         int_dscp;
    clone_session_t int_report_session;
    bit<8>         int_report_sessions;  // > 1: spread over that many sessions
    bit<8>         int_hop_words;
    bool           int_stripped;
    // The INT-MD header a source starts (IntStart), from the watchlist entry or
    // the domain border that started it.
    bit<16>        int_start_instructions;
    bit<8>         int_start_hop_budget;
    bit<16>        int_start_domain_id;
    // This switch's INT domain (int_domain); unknown: every domain is its own.
    bool           int_domain_known;
    bit<16>        int_domain_id;
    bit<16>        l4_payload_len;   // bytes after the L4 header, from the parser
    // Incremental L4 checksum update: one's-complement sum of inserted words and
    // the growth of the L4 length.
    bit<32>        l4_csum_sum;
    bit<16>        l4_len_delta;
    bit<16>        l4_length;        // TCP length for the pseudo header
    // Carried from a sink packet into its telemetry report copy
    // (field list 1 = FIELD_LIST_INT_REPORT).
    // The INT packet's DSCP and UDP checksum, which stripping changed.
    @field_list(1)
    dscp_t         report_int_dscp;
    @field_list(1)
    bit<16>        report_udp_checksum;
    // Telemetry report encapsulation settings.
    bit<16>        report_inner_max;
    bit<6>         report_hw_id;
    // Report suppression (IntReportFilter).
    bool           report_every_packet;
    bit<32>        report_latency_step;
    bit<32>        report_queue_step;
}

#endif
