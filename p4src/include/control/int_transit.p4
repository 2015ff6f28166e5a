// INT transit: every INT node (source and sink included) pushes its metadata.
#ifndef FABRIC_INT_TRANSIT_P4
#define FABRIC_INT_TRANSIT_P4

#include "../header.p4"

// Puts one metadata word in front of the stack and adds its two 16-bit halves
// to the one's-complement sum used to update the L4 checksum.
#define PUSH_INT_WORD(value) \
    hdr.int_stack.push_front(1); \
    hdr.int_stack[0].setValid(); \
    hdr.int_stack[0].data = (value); \
    meta.l4_csum_sum = meta.l4_csum_sum + (bit<32>) hdr.int_stack[0].data[31:16] \
                       + (bit<32>) hdr.int_stack[0].data[15:0]; \
    meta.int_hop_words = meta.int_hop_words + 1;

control IntTransit(inout headers_t hdr,
                   inout fabric_metadata_t meta,
                   in standard_metadata_t std_meta) {
    apply {
        bit<16> stack_words = (bit<16>) (hdr.int_shim.len - INT_MD_HEADER_WORDS);
        if (hdr.int_md.remaining_hop_cnt == 0) {
            // Hop budget exhausted: push nothing, flag it.
            hdr.int_md.e = 1;
        } else if (stack_words + (bit<16>) hdr.int_md.hop_ml > INT_STACK_WORDS) {
            // No room left in this switch's metadata stack.
            hdr.int_md.m = 1;
        } else {
            bit<16> instr = hdr.int_md.instruction_mask;
            // Each push goes in front, so fields are pushed from the last to the
            // first, and a 64-bit value low word first.
            // bit 8: buffer ID and occupancy (not available)
            if ((instr & INT_BIT_BUFFER) != 0) {
                PUSH_INT_WORD(INT_UNAVAILABLE)
            }
            // bit 7: egress port Tx utilisation (not available)
            if ((instr & INT_BIT_TX_UTIL) != 0) {
                PUSH_INT_WORD(INT_UNAVAILABLE)
            }
            // bit 6: level-2 interface IDs (not available)
            if ((instr & INT_BIT_L2_PORTS) != 0) {
                PUSH_INT_WORD(INT_UNAVAILABLE)
                PUSH_INT_WORD(INT_UNAVAILABLE)
            }
            // bit 5: egress timestamp (64 bits, us)
            if ((instr & INT_BIT_EGRESS_TS) != 0) {
                PUSH_INT_WORD(std_meta.egress_global_timestamp[31:0])
                PUSH_INT_WORD((bit<32>) std_meta.egress_global_timestamp[47:32])
            }
            // bit 4: ingress timestamp (64 bits, us)
            if ((instr & INT_BIT_INGRESS_TS) != 0) {
                PUSH_INT_WORD(std_meta.ingress_global_timestamp[31:0])
                PUSH_INT_WORD((bit<32>) std_meta.ingress_global_timestamp[47:32])
            }
            // bit 3: queue ID (priority) and occupancy (packets)
            if ((instr & INT_BIT_QUEUE) != 0) {
                PUSH_INT_WORD((bit<5>) 0 ++ std_meta.priority ++ (bit<24>) std_meta.deq_qdepth)
            }
            // bit 2: hop latency (time in queue, us)
            if ((instr & INT_BIT_HOP_LATENCY) != 0) {
                PUSH_INT_WORD(std_meta.deq_timedelta)
            }
            // bit 1: level-1 ingress and egress port IDs
            if ((instr & INT_BIT_L1_PORTS) != 0) {
                PUSH_INT_WORD((bit<7>) 0 ++ std_meta.ingress_port ++ (bit<7>) 0 ++ std_meta.egress_port)
            }
            // bit 0: node ID
            if ((instr & INT_BIT_NODE_ID) != 0) {
                PUSH_INT_WORD(meta.int_node_id)
            }
            hdr.int_md.remaining_hop_cnt = hdr.int_md.remaining_hop_cnt - 1;
            hdr.int_shim.len = hdr.int_shim.len + meta.int_hop_words;
            bit<16> added = ((bit<16>) meta.int_hop_words) << 2;
            hdr.ipv4.total_len = hdr.ipv4.total_len + added;
            if (hdr.udp.isValid()) {
                hdr.udp.length = hdr.udp.length + added;
            }
            meta.l4_len_delta = meta.l4_len_delta + added;
        }
    }
}

#endif
