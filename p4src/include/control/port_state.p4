// Congestion state of each egress port, as observed by the packets leaving it.
// Written in egress, read in ingress (trimming) and by credit marking: it is
// declared at top level so that both pipelines share it.
#ifndef FABRIC_PORT_STATE_P4
#define FABRIC_PORT_STATE_P4

#include "../header.p4"

// Queue depth (packets) that the last packet through each egress port met.
register<queue_depth_t>(PORT_COUNT) port_queue_depth;

control RecordPortState(in standard_metadata_t std_meta) {
    apply {
        port_queue_depth.write((bit<32>) std_meta.egress_port,
                               (queue_depth_t) std_meta.enq_qdepth);
    }
}

#endif
