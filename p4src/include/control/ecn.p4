// ECN marking of ECN-capable packets that met a deep egress queue.
#ifndef FABRIC_ECN_P4
#define FABRIC_ECN_P4

#include "../header.p4"

control EcnMarking(inout headers_t hdr,
                   inout fabric_metadata_t meta,
                   in standard_metadata_t std_meta) {
    counter(PORT_COUNT, CounterType.packets) ecn_marked;

    action set_ecn_threshold(queue_depth_t depth) {
        meta.ecn_threshold = depth;
    }

    /* Egress ports that mark, with the queue depth (packets, at enqueue) at
       or above which ECN-capable packets are marked CE. No entry: no marking. */
    table ecn_thresholds {
        key = {
            std_meta.egress_port: exact @name("egress_port");
        }
        actions = { set_ecn_threshold; NoAction; }
        default_action = NoAction();
        size = PORT_COUNT;
    }

    apply {
        if (hdr.ipv4.isValid() && hdr.ipv4.ecn != 0 && hdr.ipv4.ecn != ECN_CE) {
            if (ecn_thresholds.apply().hit) {
                if ((queue_depth_t) std_meta.enq_qdepth >= meta.ecn_threshold) {
                    hdr.ipv4.ecn = ECN_CE;
                    ecn_marked.count((bit<32>) std_meta.egress_port);
                }
            }
        }
    }
}

#endif
