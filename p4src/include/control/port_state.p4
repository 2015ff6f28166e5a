// Congestion state of each egress port, as observed by the packets leaving it.
// Written in egress, read in ingress (trimming) and by credit marking: it is
// declared at top level so that both pipelines share it.
#ifndef FABRIC_PORT_STATE_P4
#define FABRIC_PORT_STATE_P4

#include "../header.p4"

// Depth (packets) of each egress port's data queue: what the last packet out
// of it (data, report copies, anything but the priority queue's) left behind it
// (deq_qdepth). Not enq_qdepth: once a port trims every data packet, no data
// packet enqueues any more and the last depth seen at enqueue would stay above
// the threshold for ever; the data queue drains instead, and its last packet
// out writes what is left.
// deq_qdepth counts every queue of the port. A packet leaves a lower queue only
// when the higher ones are empty (strict priority), so a data packet's depth is
// the data queue's; trimmed packets and feedback (FeedbackQueue) leave the
// priority queue while others wait in it, so they do not write. Had they
// written, headers and feedback arriving at a port's rate (drained in packets/s
// a header takes a data packet's slot) kept the port congested and every data
// packet was trimmed. Had report copies not written, the last data packet out,
// leaving reports behind it, left a depth no later packet corrected.
register<queue_depth_t>(PORT_COUNT) port_queue_depth;

control RecordPortState(in fabric_metadata_t meta, in standard_metadata_t std_meta) {
    apply {
        if (!meta.trim && !meta.feedback) {
            port_queue_depth.write((bit<32>) std_meta.egress_port,
                                   (queue_depth_t) std_meta.deq_qdepth);
        }
    }
}

#endif
