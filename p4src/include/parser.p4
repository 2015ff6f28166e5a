// Parser and deparser of the fabric pipeline.
#ifndef FABRIC_PARSER_P4
#define FABRIC_PARSER_P4

#include "header.p4"

// First 16 bits of an INT-MD shim this pipeline parses: Type 1 (MD), NPT 0
// (original DSCP in the shim), reserved 0, Length from 3 (the INT-MD header
// alone) to 3 + INT_STACK_WORDS.
const bit<16> INT_SHIM_HEAD_MIN = 0x1003;
const bit<16> INT_SHIM_HEAD_MAX = 0x1003 + INT_STACK_WORDS;
// Shim (4 bytes) and INT-MD header (12): less payload than that is not INT.
const bit<16> INT_MD_MIN_BYTES = 16;

parser FabricParser(packet_in pkt,
                    out headers_t hdr,
                    inout fabric_metadata_t meta,
                    inout standard_metadata_t std_meta) {
    state start {
        transition select(std_meta.ingress_port) {
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
            ETHERTYPE_VLAN: parse_vlan;
            ETHERTYPE_IPV4: parse_ipv4;
            default: accept;
        }
    }

    state parse_vlan {
        pkt.extract(hdr.vlan);
        transition select(hdr.vlan.ether_type) {
            ETHERTYPE_IPV4: parse_ipv4;
            default: accept;
        }
    }

    state parse_ipv4 {
        pkt.extract(hdr.ipv4);
        transition select(hdr.ipv4.ihl, hdr.ipv4.frag_offset, hdr.ipv4.protocol) {
            (5, 0, IP_PROTO_TCP): parse_tcp;
            (5, 0, IP_PROTO_UDP): parse_udp;
            default: accept;
        }
    }

    state parse_tcp {
        pkt.extract(hdr.tcp);
        meta.l4_src_port = hdr.tcp.src_port;
        meta.l4_dst_port = hdr.tcp.dst_port;
        meta.l4_payload_len = hdr.ipv4.total_len - 40;   // IHL 5, data offset 5 below
        // INT follows the TCP header only when the header has no options.
        transition select(hdr.tcp.data_offset) {
            5: check_int;
            default: accept;
        }
    }

    state parse_udp {
        pkt.extract(hdr.udp);
        meta.l4_src_port = hdr.udp.src_port;
        meta.l4_dst_port = hdr.udp.dst_port;
        meta.l4_payload_len = hdr.udp.length - 8;
        transition check_int;
    }

    // INT-MD follows the L4 header when the DSCP says so (INT_DSCP, define.p4),
    // there is room for the shim and INT-MD header, and the next bytes are an
    // INT-MD shim whose length fits the stack. Parsed on every switch; whether
    // this switch acts on it is the int_node table's choice, and a switch that
    // does not deparses it unchanged.
    state check_int {
        transition select(hdr.ipv4.dscp, meta.l4_payload_len) {
            (INT_DSCP &&& INT_DSCP_MASK, INT_MD_MIN_BYTES .. 0xFFFF): check_int_shim;
            default: check_uec;
        }
    }

    // Anything else with the INT DSCP is payload: no parser error for it.
    state check_int_shim {
        transition select(pkt.lookahead<bit<16>>()) {
            INT_SHIM_HEAD_MIN .. INT_SHIM_HEAD_MAX: parse_int_shim;
            default: check_uec;
        }
    }

    state parse_int_shim {
        pkt.extract(hdr.int_shim);
        pkt.extract(hdr.int_md);
        meta.int_words_left = hdr.int_shim.len - INT_MD_HEADER_WORDS;
        transition select(meta.int_words_left) {
            0: check_uec;
            default: parse_int_word;
        }
    }

    // The metadata stack, one word at a time, bounded by the shim length.
    state parse_int_word {
        pkt.extract(hdr.int_stack.next);
        meta.int_words_left = meta.int_words_left - 1;
        transition select(meta.int_words_left) {
            0: check_uec;
            default: parse_int_word;
        }
    }

    state check_uec {
        transition select(hdr.ipv4.protocol, meta.l4_dst_port) {
            (IP_PROTO_UDP, UDP_PORT_UEC): parse_pds;
            default: accept;
        }
    }

    state parse_pds {
        pkt.extract(hdr.pds);
        transition select(hdr.pds.pds_type) {
            PDS_TYPE_CONTROL: parse_pds_control;
            default: accept;
        }
    }

    state parse_pds_control {
        pkt.extract(hdr.pds_control);
        transition accept;
    }
}

control FabricDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.packet_in);
        pkt.emit(hdr.report_ethernet);
        pkt.emit(hdr.report_ipv4);
        pkt.emit(hdr.report_udp);
        pkt.emit(hdr.report_group);
        pkt.emit(hdr.report_individual);
        pkt.emit(hdr.report_int);
        pkt.emit(hdr.ethernet);
        pkt.emit(hdr.vlan);
        pkt.emit(hdr.ipv4);
        pkt.emit(hdr.tcp);
        pkt.emit(hdr.udp);
        pkt.emit(hdr.int_shim);
        pkt.emit(hdr.int_md);
        pkt.emit(hdr.int_stack);
        pkt.emit(hdr.pds);
        pkt.emit(hdr.pds_control);
    }
}

#endif
