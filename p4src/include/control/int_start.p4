// Starting INT-MD on a packet: the shim and an empty INT-MD header. One copy of
// it for both sources, the watchlist (IntSource) and a domain border starting
// the next domain's INT (IntDomainBorder).
#ifndef FABRIC_INT_START_P4
#define FABRIC_INT_START_P4

#include "../header.p4"

// Inserts the shim (NPT 0, original DSCP kept) and the INT-MD header for
// meta.int_start_{instructions,hop_budget,domain_id}, with the hop ML that
// bitmap asks of every hop, marks the INT DSCP and grows the IPv4/UDP lengths
// by the 16 bytes added. No hop is pushed here (that is IntTransit's).
control IntStart(inout headers_t hdr, inout fabric_metadata_t meta) {
    apply {
        bit<16> instr = meta.int_start_instructions;
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
        // Words each hop will push for this bitmap.
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
        hdr.int_md.remaining_hop_cnt = meta.int_start_hop_budget;
        hdr.int_md.instruction_mask = instr;
        hdr.int_md.domain_id = meta.int_start_domain_id;
        hdr.int_md.ds_instruction = 0;
        hdr.int_md.ds_flags = 0;
        hdr.ipv4.dscp = meta.int_dscp;
        // Shim (4 bytes) and INT-MD header (12 bytes).
        hdr.ipv4.total_len = hdr.ipv4.total_len + 16;
        if (hdr.udp.isValid()) {
            hdr.udp.length = hdr.udp.length + 16;
        }
        meta.l4_len_delta = meta.l4_len_delta + 16;
    }
}

#endif
