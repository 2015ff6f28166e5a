// INT source: starts INT-MD on watched flows.
#ifndef FABRIC_INT_SOURCE_P4
#define FABRIC_INT_SOURCE_P4

#include "../header.p4"

control IntSource(inout headers_t hdr,
                  inout fabric_metadata_t meta,
                  in standard_metadata_t std_meta) {
    action start_int(bit<16> instructions, bit<8> hop_budget, bit<16> domain_id) {
        hdr.int_shim.setValid();
        hdr.int_shim.int_type = INT_TYPE_MD;
        hdr.int_shim.npt = 0;
        hdr.int_shim.rsvd0 = 0;
        hdr.int_shim.len = INT_MD_HEADER_WORDS;
        hdr.int_shim.rsvd1 = 0;
        hdr.int_shim.dscp = hdr.ipv4.dscp;
        hdr.int_shim.rsvd2 = 0;
        hdr.int_md.setValid();
        hdr.int_md.ver = INT_VERSION;
        hdr.int_md.d = 0;
        hdr.int_md.e = 0;
        hdr.int_md.m = 0;
        hdr.int_md.rsvd = 0;
        hdr.int_md.hop_ml = 0;
        hdr.int_md.remaining_hop_cnt = hop_budget;
        hdr.int_md.instruction_mask = instructions;
        hdr.int_md.domain_id = domain_id;
        hdr.int_md.ds_instruction = 0;
        hdr.int_md.ds_flags = 0;
        hdr.ipv4.dscp = meta.int_dscp;
    }

    /* INT watchlist: flows (5-tuple and ingress port) this node starts INT-MD
       on, with the instruction bitmap, hop budget and domain ID to use. */
    table int_watchlist {
        key = {
            std_meta.ingress_port: ternary @name("ingress_port");
            hdr.ipv4.src_addr:     ternary @name("ipv4_src");
            hdr.ipv4.dst_addr:     ternary @name("ipv4_dst");
            hdr.ipv4.protocol:     ternary @name("ip_proto");
            meta.l4_src_port:      ternary @name("l4_src_port");
            meta.l4_dst_port:      ternary @name("l4_dst_port");
        }
        actions = { start_int; NoAction; }
        default_action = NoAction();
        size = INT_WATCHLIST_SIZE;
    }

    apply {
        if (hdr.udp.isValid() || (hdr.tcp.isValid() && hdr.tcp.data_offset == 5)) {
            if (int_watchlist.apply().hit) {
                // Words each hop will push for this bitmap.
                bit<16> instr = hdr.int_md.instruction_mask;
                bit<5> words = 0;
                if ((instr & INT_BIT_NODE_ID) != 0)     { words = words + 1; }
                if ((instr & INT_BIT_L1_PORTS) != 0)    { words = words + 1; }
                if ((instr & INT_BIT_HOP_LATENCY) != 0) { words = words + 1; }
                if ((instr & INT_BIT_QUEUE) != 0)       { words = words + 1; }
                if ((instr & INT_BIT_INGRESS_TS) != 0)  { words = words + 2; }
                if ((instr & INT_BIT_EGRESS_TS) != 0)   { words = words + 2; }
                if ((instr & INT_BIT_L2_PORTS) != 0)    { words = words + 2; }
                if ((instr & INT_BIT_TX_UTIL) != 0)     { words = words + 1; }
                if ((instr & INT_BIT_BUFFER) != 0)      { words = words + 1; }
                hdr.int_md.hop_ml = words;
                // Shim (4 bytes) and INT-MD header (12 bytes).
                hdr.ipv4.total_len = hdr.ipv4.total_len + 16;
                if (hdr.udp.isValid()) {
                    hdr.udp.length = hdr.udp.length + 16;
                }
                meta.l4_len_delta = meta.l4_len_delta + 16;
            }
        }
    }
}

#endif
