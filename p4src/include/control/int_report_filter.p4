// Report suppression at the INT sink (INT v2.1 §3.3 event detection): a
// telemetry report only when something about a flow changed, since one report
// per delivered packet costs the switches more than the traffic itself.
#ifndef FABRIC_INT_REPORT_FILTER_P4
#define FABRIC_INT_REPORT_FILTER_P4

#include "../header.p4"

// Word i of the stack, 0 past its end.
#define STACK_WORD(i) (hdr.int_stack[i].isValid() ? hdr.int_stack[i].data : 32w0)
// Word `at` (0-3) of the hop starting at word s: hop latency and queue
// occupancy are among a hop's first four words whatever the bitmap.
#define HOP_WORD(s, at) \
    (at == 0 ? STACK_WORD(s) : (at == 1 ? STACK_WORD(s + 1) : \
     (at == 2 ? STACK_WORD(s + 2) : STACK_WORD(s + 3))))
// Hop latency and queue words of the hop starting at word s.
#define HOP_LOADS(s, l, q) \
    l = HOP_WORD(s, latency_at); q = HOP_WORD(s, queue_at);
// First two words of hops 1-3 (hop 0 starts at word 0): the node ID and the
// level-1 ports with instruction bits 0 and 1, so parallel links differ too;
// and the hop latency and queue words of each.
#define HOP_HEADS(a, b, c) \
    h1 = STACK_WORD(a); p1 = STACK_WORD(a + 1); HOP_LOADS(a, l1, q1) \
    h2 = STACK_WORD(b); p2 = STACK_WORD(b + 1); HOP_LOADS(b, l2, q2) \
    h3 = STACK_WORD(c); p3 = STACK_WORD(c + 1); HOP_LOADS(c, l3, q3)

// 0 below step, then one more per fourfold growth: 1 from step, 2 from 4 x
// step, 3 from 16 x step, 4 from 64 x step.
control ReportBucket(in bit<32> value, in bit<32> step, out bit<4> bucket) {
    apply {
        bucket = 0;
        if (value >= step) { bucket = 1; }
        if (value >= step << 2) { bucket = 2; }
        if (value >= step << 4) { bucket = 3; }
        if (value >= step << 6) { bucket = 4; }
    }
}

control IntReportFilter(in headers_t hdr,
                        inout fabric_metadata_t meta,
                        in standard_metadata_t std_meta,
                        out bool send_report) {
    // Per slot, a digest of the flow, its hop set and its buckets at the last
    // report; a different digest (another flow, path or bucket) is a change.
    register<bit<32>>(REPORT_FLOW_SLOTS) last_reported;
    counter(1, CounterType.packets) suppressed_reports;
    // The sink's own buckets (from its standard metadata) and those of hops
    // 1-3 (from the stack): a queue building upstream is a change too.
    ReportBucket() latency_bucket;
    ReportBucket() queue_bucket;
    ReportBucket() latency_bucket1;
    ReportBucket() queue_bucket1;
    ReportBucket() latency_bucket2;
    ReportBucket() queue_bucket2;
    ReportBucket() latency_bucket3;
    ReportBucket() queue_bucket3;

    action report_changes(bit<32> latency_step, bit<32> queue_step) {
        meta.report_every_packet = false;
        meta.report_latency_step = latency_step;
        meta.report_queue_step = queue_step;
    }

    action report_every_packet() {
        meta.report_every_packet = true;
    }

    /* Report mode of this sink, as its default action: report_changes (the
       default) reports a flow's first packet on each hop set and every change
       of the hop-latency or queue bucket of any of its first four hops (the
       sink's and three upstream; steps in us and packets, 0 to ignore one);
       report_every_packet reports every packet. */
    table report_mode {
        actions = { report_changes; report_every_packet; }
        default_action = report_changes(REPORT_LATENCY_STEP, REPORT_QUEUE_STEP);
    }

    apply {
        report_mode.apply();
        send_report = true;
        if (!meta.report_every_packet) {
            // A hop's metadata follows the instruction bitmap's bit order (INT v2.1):
            // hop latency after node ID and level-1 ports, queue after it.
            bit<16> instr = hdr.int_md.instruction_mask;
            bit<8> latency_at = 0;
            if ((instr & INT_BIT_NODE_ID) != 0) { latency_at = latency_at + 1; }
            if ((instr & INT_BIT_L1_PORTS) != 0) { latency_at = latency_at + 1; }
            bit<8> queue_at = latency_at;
            if ((instr & INT_BIT_HOP_LATENCY) != 0) { queue_at = queue_at + 1; }
            // Hop set: the first two words of each of the first four hops (sink
            // first), and the latency and queue words of hops 1-3. Stack indices
            // must be constants, so one line per Hop ML.
            bit<5> m = hdr.int_md.hop_ml;
            bit<32> h0 = STACK_WORD(0);
            bit<32> p0 = 0;
            bit<32> h1 = 0;
            bit<32> p1 = 0;
            bit<32> h2 = 0;
            bit<32> p2 = 0;
            bit<32> h3 = 0;
            bit<32> p3 = 0;
            bit<32> l1 = 0;
            bit<32> q1 = 0;
            bit<32> l2 = 0;
            bit<32> q2 = 0;
            bit<32> l3 = 0;
            bit<32> q3 = 0;
            if (m == 1) {
                h1 = STACK_WORD(1); h2 = STACK_WORD(2); h3 = STACK_WORD(3);
                HOP_LOADS(1, l1, q1) HOP_LOADS(2, l2, q2) HOP_LOADS(3, l3, q3)
            } else {
                p0 = STACK_WORD(1);
                if (m == 2) { HOP_HEADS(2, 4, 6) }
                else if (m == 3) { HOP_HEADS(3, 6, 9) }
                else if (m == 4) { HOP_HEADS(4, 8, 12) }
                else if (m == 5) { HOP_HEADS(5, 10, 15) }
                else if (m == 6) { HOP_HEADS(6, 12, 18) }
                else if (m == 7) { HOP_HEADS(7, 14, 21) }
                else if (m == 8) { HOP_HEADS(8, 16, 24) }
                else if (m == 9) { HOP_HEADS(9, 18, 27) }
                else if (m == 10) { HOP_HEADS(10, 20, 30) }
                else if (m == 11) {
                    // Four hops of 11 words exceed the stack: hop 3 is never whole.
                    h1 = STACK_WORD(11); p1 = STACK_WORD(12); HOP_LOADS(11, l1, q1)
                    h2 = STACK_WORD(22); p2 = STACK_WORD(23); HOP_LOADS(22, l2, q2)
                    h3 = STACK_WORD(33); p3 = STACK_WORD(34);
                }
                else if (m == 12) {
                    h1 = STACK_WORD(12); p1 = STACK_WORD(13); HOP_LOADS(12, l1, q1)
                    h2 = STACK_WORD(24); p2 = STACK_WORD(25); HOP_LOADS(24, l2, q2)
                }
            }
            bit<4> latency = 0;
            bit<4> queue = 0;
            bit<4> latency1 = 0;
            bit<4> queue1 = 0;
            bit<4> latency2 = 0;
            bit<4> queue2 = 0;
            bit<4> latency3 = 0;
            bit<4> queue3 = 0;
            if (meta.report_latency_step != 0) {
                latency_bucket.apply(std_meta.deq_timedelta, meta.report_latency_step, latency);
                if ((instr & INT_BIT_HOP_LATENCY) != 0) {
                    latency_bucket1.apply(l1, meta.report_latency_step, latency1);
                    latency_bucket2.apply(l2, meta.report_latency_step, latency2);
                    latency_bucket3.apply(l3, meta.report_latency_step, latency3);
                }
            }
            if (meta.report_queue_step != 0) {
                queue_bucket.apply((bit<32>) std_meta.deq_qdepth, meta.report_queue_step, queue);
                // The queue word: queue ID (8 bits), then occupancy (24 bits).
                if ((instr & INT_BIT_QUEUE) != 0) {
                    queue_bucket1.apply((bit<32>) q1[23:0], meta.report_queue_step, queue1);
                    queue_bucket2.apply((bit<32>) q2[23:0], meta.report_queue_step, queue2);
                    queue_bucket3.apply((bit<32>) q3[23:0], meta.report_queue_step, queue3);
                }
            }
            // A UEC source port is entropy, new for every sprayed packet: the
            // flow is the host pair and destination port, its paths the hop sets.
            l4_port_t src_port = meta.l4_src_port;
            if (hdr.udp.isValid() && meta.l4_dst_port == UDP_PORT_UEC) {
                src_port = 0;
            }
            bit<32> slot;
            hash(slot, HashAlgorithm.crc16, 32w0,
                 { hdr.ipv4.src_addr, hdr.ipv4.dst_addr, hdr.ipv4.protocol,
                   src_port, meta.l4_dst_port, h0, p0, h1, p1, h2, p2, h3, p3 },
                 (bit<32>) REPORT_FLOW_SLOTS);
            bit<32> digest;
            hash(digest, HashAlgorithm.crc32, 32w0,
                 { hdr.ipv4.src_addr, hdr.ipv4.dst_addr, hdr.ipv4.protocol,
                   src_port, meta.l4_dst_port, h0, p0, h1, p1, h2, p2, h3, p3,
                   hdr.int_md.e, hdr.int_md.m, latency, queue,
                   latency1, queue1, latency2, queue2, latency3, queue3 },
                 32w0xffffffff);
            digest = digest | 1;  // never the empty slot's 0
            bit<32> last;
            last_reported.read(last, slot);
            if (last == digest) {
                send_report = false;
                suppressed_reports.count(0);
            } else {
                last_reported.write(slot, digest);
            }
        }
    }
}

#endif
