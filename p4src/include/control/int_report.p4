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
        hdr.report_ipv4.flags = 0;
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
       bytes of the original packet a report keeps. No entry: reports dropped. */
    table report_encap {
        actions = { set_report_encap; NoAction; }
        default_action = NoAction();
    }

    action copy_saved_stack() {
        hdr.report_stack[0] = hdr.saved_stack[0];
        hdr.report_stack[1] = hdr.saved_stack[1];
        hdr.report_stack[2] = hdr.saved_stack[2];
        hdr.report_stack[3] = hdr.saved_stack[3];
        hdr.report_stack[4] = hdr.saved_stack[4];
        hdr.report_stack[5] = hdr.saved_stack[5];
        hdr.report_stack[6] = hdr.saved_stack[6];
        hdr.report_stack[7] = hdr.saved_stack[7];
        hdr.report_stack[8] = hdr.saved_stack[8];
        hdr.report_stack[9] = hdr.saved_stack[9];
        hdr.report_stack[10] = hdr.saved_stack[10];
        hdr.report_stack[11] = hdr.saved_stack[11];
        hdr.report_stack[12] = hdr.saved_stack[12];
        hdr.report_stack[13] = hdr.saved_stack[13];
        hdr.report_stack[14] = hdr.saved_stack[14];
        hdr.report_stack[15] = hdr.saved_stack[15];
        hdr.report_stack[16] = hdr.saved_stack[16];
        hdr.report_stack[17] = hdr.saved_stack[17];
        hdr.report_stack[18] = hdr.saved_stack[18];
        hdr.report_stack[19] = hdr.saved_stack[19];
        hdr.report_stack[20] = hdr.saved_stack[20];
        hdr.report_stack[21] = hdr.saved_stack[21];
        hdr.report_stack[22] = hdr.saved_stack[22];
        hdr.report_stack[23] = hdr.saved_stack[23];
        hdr.report_stack[24] = hdr.saved_stack[24];
        hdr.report_stack[25] = hdr.saved_stack[25];
        hdr.report_stack[26] = hdr.saved_stack[26];
        hdr.report_stack[27] = hdr.saved_stack[27];
        hdr.report_stack[28] = hdr.saved_stack[28];
        hdr.report_stack[29] = hdr.saved_stack[29];
        hdr.report_stack[30] = hdr.saved_stack[30];
        hdr.report_stack[31] = hdr.saved_stack[31];
        hdr.report_stack[32] = hdr.saved_stack[32];
        hdr.report_stack[33] = hdr.saved_stack[33];
        hdr.report_stack[34] = hdr.saved_stack[34];
        hdr.report_stack[35] = hdr.saved_stack[35];
    }

    apply {
        report_encap.apply();
        if (hdr.report_ethernet.isValid()) {
            bit<16> inner_len = hdr.ipv4.total_len + 14;
            if (hdr.vlan.isValid()) {
                inner_len = inner_len + 4;
            }
            if (inner_len > meta.report_inner_max) {
                inner_len = meta.report_inner_max;
            }
            bit<16> md_bytes = ((bit<16>) meta.report_md_words) << 2;
            bit<32> seq_no = 0;
            report_seq_no.read(seq_no, 0);
            report_seq_no.write(0, seq_no + 1);
            copy_saved_stack();
            hdr.report_group.setValid();
            hdr.report_group.ver = REPORT_VERSION;
            hdr.report_group.hw_id = meta.report_hw_id;
            hdr.report_group.seq_no = seq_no[21:0];
            hdr.report_group.node_id = meta.int_node_id;
            hdr.report_individual.setValid();
            hdr.report_individual.rep_type = REPORT_TYPE_INT;
            hdr.report_individual.in_type = REPORT_INNER_ETHERNET;
            hdr.report_individual.report_length = (bit<8>) ((8 + md_bytes + inner_len + 3) >> 2);
            hdr.report_individual.md_length = meta.report_md_words;
            hdr.report_individual.d = 0;
            hdr.report_individual.q = 0;
            hdr.report_individual.f = 1;
            hdr.report_individual.i = 0;
            hdr.report_individual.rsvd = 0;
            hdr.report_int.setValid();
            hdr.report_int.rep_md_bits = meta.report_md_bits;
            hdr.report_int.domain_id = meta.report_domain_id;
            hdr.report_int.ds_md_bits = meta.report_ds_md_bits;
            hdr.report_int.ds_md_status = meta.report_ds_md_status;
            hdr.report_ipv4.total_len = REPORT_FIXED_BYTES - 14 + md_bytes + inner_len;
            hdr.report_udp.length = hdr.report_ipv4.total_len - 20;
            truncate((bit<32>) (REPORT_FIXED_BYTES + md_bytes + inner_len));
            int_reports.count(0);
        } else {
            mark_to_drop(std_meta);
        }
    }
}

#endif
