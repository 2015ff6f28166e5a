// Congestion state of each egress port, as observed by the packets leaving it.
// Written in egress, read in ingress (trimming) and by credit marking: it is
// declared at top level so that both pipelines share it.
#ifndef FABRIC_PORT_STATE_P4
#define FABRIC_PORT_STATE_P4

#include "../header.p4"

// Depth (packets) of each egress port's data queue: what the last untrimmed
// packet out of the port left behind it (deq_qdepth). Not enq_qdepth: once a
// port trims every data packet, no data packet enqueues any more and the last
// depth seen at enqueue would stay above the threshold for ever. Trimmed
// packets do not write it, since their queue is not the data queue.
register<queue_depth_t>(PORT_COUNT) port_queue_depth;

control RecordPortState(in fabric_metadata_t meta, in standard_metadata_t std_meta) {
    apply {
        if (!meta.trim) {
            port_queue_depth.write((bit<32>) std_meta.egress_port,
                                   (queue_depth_t) std_meta.deq_qdepth);
        }
    }
}

#endif
