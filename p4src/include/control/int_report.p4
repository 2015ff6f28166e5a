// Telemetry Report v2.0: turns a sink's clone into a report to the collector.
#ifndef FABRIC_INT_REPORT_P4
#define FABRIC_INT_REPORT_P4

#include "../header.p4"

control IntReport(inout headers_t hdr,
                  inout fabric_metadata_t meta,
                  inout standard_metadata_t std_meta) {
    register<bit<32>>(1) report_seq_no;
    counter(1, CounterType.packets_and_bytes) int_reports;

    action set_report_encap(mac_addr_t src_mac, mac_addr_t dst_mac,
                            ipv4_addr_t src_ip, ipv4_addr_t collector_ip,
                            l4_port_t src_port, l4_port_t collector_port,
                            bit<6> hw_id, bit<16> inner_bytes) {
        hdr.report_ethernet.setValid();
        hdr.report_ethernet.dst_addr = dst_mac;
        hdr.report_ethernet.src_addr = src_mac;
        hdr.report_ethernet.ether_type = ETHERTYPE_IPV4;
        hdr.report_ipv4.setValid();
        hdr.report_ipv4.version = 4;
        hdr.report_ipv4.ihl = 5;
        hdr.report_ipv4.dscp = 0;
        hdr.report_ipv4.ecn = 0;
        hdr.report_ipv4.identification = 0;
        hdr.report_ipv4.flags = IPV4_FLAGS_DF;
        hdr.report_ipv4.frag_offset = 0;
        hdr.report_ipv4.ttl = 64;
        hdr.report_ipv4.protocol = IP_PROTO_UDP;
        hdr.report_ipv4.hdr_checksum = 0;
        hdr.report_ipv4.src_addr = src_ip;
        hdr.report_ipv4.dst_addr = collector_ip;
        hdr.report_udp.setValid();
        hdr.report_udp.src_port = src_port;
        hdr.report_udp.dst_port = collector_port;
        hdr.report_udp.checksum = 0;
        meta.report_inner_max = inner_bytes;
        meta.report_hw_id = hw_id;
    }

    /* Encapsulation of telemetry reports towards the collector, and how many
       bytes of the original IPv4 packet (INT not counted, its L3-L4 headers
       always kept) a report carries. No entry: reports dropped. */
    table report_encap {
        actions = { set_report_encap; NoAction; }
        default_action = NoAction();
    }

    action set_report_next_hop(mac_addr_t dst_mac) {
        hdr.report_ethernet.dst_addr = dst_mac;
    }

    /* Next-hop MAC of a report by the port its clone session sent it to, when
       reports are spread over several uplinks; no entry: report_encap's dst_mac. */
    table report_next_hop {
        key = {
            std_meta.egress_port: exact @name("egress_port");
        }
        actions = { set_report_next_hop; NoAction; }
        default_action = NoAction();
        size = PORT_COUNT;
    }

    // The INT headers and stack as the sink had them before stripping.
    action restore_int() {
        hdr.int_shim = hdr.saved_shim;
        hdr.int_md = hdr.saved_md;
        hdr.ipv4.dscp = meta.report_int_dscp;
        hdr.int_stack[0] = hdr.saved_stack[0];
        hdr.int_stack[1] = hdr.saved_stack[1];
        hdr.int_stack[2] = hdr.saved_stack[2];
        hdr.int_stack[3] = hdr.saved_stack[3];
        hdr.int_stack[4] = hdr.saved_stack[4];
        hdr.int_stack[5] = hdr.saved_stack[5];
        hdr.int_stack[6] = hdr.saved_stack[6];
        hdr.int_stack[7] = hdr.saved_stack[7];
        hdr.int_stack[8] = hdr.saved_stack[8];
        hdr.int_stack[9] = hdr.saved_stack[9];
        hdr.int_stack[10] = hdr.saved_stack[10];
        hdr.int_stack[11] = hdr.saved_stack[11];
        hdr.int_stack[12] = hdr.saved_stack[12];
        hdr.int_stack[13] = hdr.saved_stack[13];
        hdr.int_stack[14] = hdr.saved_stack[14];
        hdr.int_stack[15] = hdr.saved_stack[15];
        hdr.int_stack[16] = hdr.saved_stack[16];
        hdr.int_stack[17] = hdr.saved_stack[17];
        hdr.int_stack[18] = hdr.saved_stack[18];
        hdr.int_stack[19] = hdr.saved_stack[19];
        hdr.int_stack[20] = hdr.saved_stack[20];
        hdr.int_stack[21] = hdr.saved_stack[21];
        hdr.int_stack[22] = hdr.saved_stack[22];
        hdr.int_stack[23] = hdr.saved_stack[23];
        hdr.int_stack[24] = hdr.saved_stack[24];
        hdr.int_stack[25] = hdr.saved_stack[25];
        hdr.int_stack[26] = hdr.saved_stack[26];
        hdr.int_stack[27] = hdr.saved_stack[27];
        hdr.int_stack[28] = hdr.saved_stack[28];
        hdr.int_stack[29] = hdr.saved_stack[29];
        hdr.int_stack[30] = hdr.saved_stack[30];
        hdr.int_stack[31] = hdr.saved_stack[31];
        hdr.int_stack[32] = hdr.saved_stack[32];
        hdr.int_stack[33] = hdr.saved_stack[33];
        hdr.int_stack[34] = hdr.saved_stack[34];
        hdr.int_stack[35] = hdr.saved_stack[35];
    }

    apply {
        report_encap.apply();
        if (hdr.report_ethernet.isValid() && hdr.saved_md.isValid()) {
            report_next_hop.apply();
            // A domain border started the next domain's INT after stripping
            // (IntDomainBorder): those headers are not in this domain's packet.
            bit<16> next_domain_bytes = 0;
            if (hdr.int_shim.isValid()) {
                next_domain_bytes = (((bit<16>) hdr.int_shim.len) << 2) + 4;
            }
            // Inner packet: the IPv4 packet as the sink forwarded it, INT included
            // (the sink's own hop is the first in the stack). From IPv4 on, INT
            // ends on a word boundary, so whole words never cut it.
            restore_int();
            hdr.ethernet.setInvalid();
            hdr.vlan.setInvalid();
            bit<16> int_bytes = (((bit<16>) hdr.int_shim.len) << 2) + 4;
            hdr.ipv4.total_len = hdr.ipv4.total_len - next_domain_bytes + int_bytes;
            bit<16> headers = 20 + 20;  // INT follows only option-less TCP
            if (hdr.udp.isValid()) {
                hdr.udp.length = hdr.udp.length - next_domain_bytes + int_bytes;
                hdr.udp.checksum = meta.report_udp_checksum;
                headers = 20 + 8;
            }
            // Keep the headers, INT and up to report_inner_max bytes of the
            // original IPv4 packet, in whole words, all of them present: Report
            // Length states exactly what the report carries.
            bit<16> present = hdr.ipv4.total_len;
            bit<16> original = present - int_bytes;
            bit<16> keep = meta.report_inner_max;
            if (keep < headers) {
                keep = headers;
            }
            if (keep > original) {
                keep = original;
            }
            bit<16> inner_len = (keep + int_bytes + 3) & 0xfffc;
            if (inner_len > present) {
                inner_len = present & 0xfffc;
            }
            if (inner_len > REPORT_INNER_MAX_BYTES) {
                inner_len = REPORT_INNER_MAX_BYTES;
            }
            bit<32> seq_no = 0;
            report_seq_no.read(seq_no, 0);
            report_seq_no.write(0, seq_no + 1);
            hdr.report_group.setValid();
            hdr.report_group.ver = REPORT_VERSION;
            hdr.report_group.hw_id = meta.report_hw_id;
            hdr.report_group.seq_no = seq_no[21:0];
            hdr.report_group.node_id = meta.int_node_id;
            hdr.report_individual.setValid();
            hdr.report_individual.rep_type = REPORT_TYPE_INT;
            hdr.report_individual.in_type = REPORT_INNER_IPV4;
            // Words after the individual header's first: main contents and inner.
            hdr.report_individual.report_length = (bit<8>) ((REPORT_INT_MAIN_BYTES + inner_len) >> 2);
            hdr.report_individual.md_length = 0;
            hdr.report_individual.d = 0;
            hdr.report_individual.q = 0;
            hdr.report_individual.f = 1;
            hdr.report_individual.i = 0;
            hdr.report_individual.rsvd = 0;
            // No metadata in the main contents (RepMdBits 0, MD Length 0) and no
            // domain-specific metadata (DSMdBits 0): all of it is embedded.
            hdr.report_int.setValid();
            hdr.report_int.rep_md_bits = 0;
            hdr.report_int.domain_id = hdr.int_md.domain_id;
            hdr.report_int.ds_md_bits = 0;
            hdr.report_int.ds_md_status = 0;
            hdr.report_ipv4.total_len = REPORT_FIXED_BYTES - 14 + inner_len;
            hdr.report_udp.length = hdr.report_ipv4.total_len - 20;
            truncate((bit<32>) (REPORT_FIXED_BYTES + inner_len));
            int_reports.count(0);
        } else {
            mark_to_drop(std_meta);
        }
    }
}

#endif
