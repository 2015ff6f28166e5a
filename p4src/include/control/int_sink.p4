// INT sink: a port facing a host ends INT, restoring the packet and, unless
// the report filter suppresses it, cloning it into a telemetry report.
#ifndef FABRIC_INT_SINK_P4
#define FABRIC_INT_SINK_P4

#include "../header.p4"
#include "int_report_filter.p4"

control IntSink(inout headers_t hdr,
                inout fabric_metadata_t meta,
                inout standard_metadata_t std_meta) {
    IntReportFilter() report_filter;

    action set_int_sink(clone_session_t report_session) {
        meta.int_report_session = report_session;
    }

    // Reports of different flows leave by different uplinks: one clone session
    // per uplink, report_session .. report_session + sessions - 1, by flow hash.
    action set_int_sink_spread(clone_session_t report_session, bit<8> sessions) {
        meta.int_report_session = report_session;
        meta.int_report_sessions = sessions;
    }

    /* Egress ports facing hosts, where INT ends, with the clone session(s) that
       carry the telemetry report copy towards the collector. */
    table int_sink_ports {
        key = {
            std_meta.egress_port: exact @name("egress_port");
        }
        actions = { set_int_sink; set_int_sink_spread; NoAction; }
        default_action = NoAction();
        size = PORT_COUNT;
    }

    // The report copy is taken from the headers as they are at the end of
    // egress, when INT is already stripped, so the INT headers and stack travel
    // in saved_* (never emitted) and what stripping changes in field list 1.
    action save_for_report() {
        hdr.saved_shim = hdr.int_shim;
        hdr.saved_md = hdr.int_md;
        meta.report_int_dscp = hdr.ipv4.dscp;
        meta.report_udp_checksum = hdr.udp.isValid() ? hdr.udp.checksum : 16w0;
        hdr.saved_stack[0] = hdr.int_stack[0];
        hdr.saved_stack[1] = hdr.int_stack[1];
        hdr.saved_stack[2] = hdr.int_stack[2];
        hdr.saved_stack[3] = hdr.int_stack[3];
        hdr.saved_stack[4] = hdr.int_stack[4];
        hdr.saved_stack[5] = hdr.int_stack[5];
        hdr.saved_stack[6] = hdr.int_stack[6];
        hdr.saved_stack[7] = hdr.int_stack[7];
        hdr.saved_stack[8] = hdr.int_stack[8];
        hdr.saved_stack[9] = hdr.int_stack[9];
        hdr.saved_stack[10] = hdr.int_stack[10];
        hdr.saved_stack[11] = hdr.int_stack[11];
        hdr.saved_stack[12] = hdr.int_stack[12];
        hdr.saved_stack[13] = hdr.int_stack[13];
        hdr.saved_stack[14] = hdr.int_stack[14];
        hdr.saved_stack[15] = hdr.int_stack[15];
        hdr.saved_stack[16] = hdr.int_stack[16];
        hdr.saved_stack[17] = hdr.int_stack[17];
        hdr.saved_stack[18] = hdr.int_stack[18];
        hdr.saved_stack[19] = hdr.int_stack[19];
        hdr.saved_stack[20] = hdr.int_stack[20];
        hdr.saved_stack[21] = hdr.int_stack[21];
        hdr.saved_stack[22] = hdr.int_stack[22];
        hdr.saved_stack[23] = hdr.int_stack[23];
        hdr.saved_stack[24] = hdr.int_stack[24];
        hdr.saved_stack[25] = hdr.int_stack[25];
        hdr.saved_stack[26] = hdr.int_stack[26];
        hdr.saved_stack[27] = hdr.int_stack[27];
        hdr.saved_stack[28] = hdr.int_stack[28];
        hdr.saved_stack[29] = hdr.int_stack[29];
        hdr.saved_stack[30] = hdr.int_stack[30];
        hdr.saved_stack[31] = hdr.int_stack[31];
        hdr.saved_stack[32] = hdr.int_stack[32];
        hdr.saved_stack[33] = hdr.int_stack[33];
        hdr.saved_stack[34] = hdr.int_stack[34];
        hdr.saved_stack[35] = hdr.int_stack[35];
    }

    apply {
        if (int_sink_ports.apply().hit) {
            bool send_report;
            report_filter.apply(hdr, meta, std_meta, send_report);
            if (send_report) {
                if (meta.int_report_sessions > 1) {
                    bit<32> offset;
                    hash(offset, HashAlgorithm.crc16, 32w0,
                         { hdr.ipv4.src_addr, hdr.ipv4.dst_addr, hdr.ipv4.protocol,
                           meta.l4_src_port, meta.l4_dst_port },
                         (bit<32>) meta.int_report_sessions);
                    meta.int_report_session = meta.int_report_session + offset;
                }
                save_for_report();
                clone_preserving_field_list(CloneType.E2E, meta.int_report_session,
                                            FIELD_LIST_INT_REPORT);
            }
            // Shim length counts the words after the shim.
            bit<16> removed = (((bit<16>) hdr.int_shim.len) << 2) + 4;
            hdr.ipv4.total_len = hdr.ipv4.total_len - removed;
            hdr.ipv4.dscp = hdr.int_shim.dscp;
            if (hdr.udp.isValid()) {
                hdr.udp.length = hdr.udp.length - removed;
                hdr.udp.checksum = 0;
            }
            hdr.int_shim.setInvalid();
            hdr.int_md.setInvalid();
            hdr.int_stack.pop_front(INT_STACK_WORDS);
            meta.int_stripped = true;
            // TCP: the checksum is recomputed over the restored segment.
            meta.l4_length = hdr.ipv4.total_len - 20;
        }
    }
}

#endif
