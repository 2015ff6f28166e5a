// UEC transport feedback (PDS ACKs, NACKs and CONTROL packets: credits, credit
// requests, closes) in a queue class of its own.
#ifndef FABRIC_FEEDBACK_P4
#define FABRIC_FEEDBACK_P4

#include "../header.p4"

// Receiver-driven transport is clocked by its feedback: a NACK, an ACK or a
// credit waiting behind a port's data queue delays every sender that port's
// traffic answers, which then pulls and retransmits late (NDP and UEC put
// control packets and trimmed headers in the priority queue for this reason).
// Applied after the partition's queue class, which it overrides.
control FeedbackQueue(in headers_t hdr,
                      inout fabric_metadata_t meta,
                      inout standard_metadata_t std_meta) {
    action set_feedback_queue(bit<3> queue) {
        std_meta.priority = queue;
        meta.feedback = true;
    }

    /* PDS packet types to the queue class they take (standard_metadata.priority:
       with priority queues the higher number drains first). No entry: the queue
       of the packet's partition. */
    table feedback_queues {
        key = {
            hdr.pds.pds_type: exact @name("pds_type");
        }
        actions = { set_feedback_queue; NoAction; }
        default_action = NoAction();
        size = FEEDBACK_TYPES_SIZE;
    }

    apply {
        if (hdr.pds.isValid()) {
            feedback_queues.apply();
        }
    }
}

// Counts, in egress, the UEC packets that are not data by the queue they took.
control FeedbackCount(in headers_t hdr,
                      in standard_metadata_t std_meta) {
    // Non-data PDS packets sent, by the queue they took (standard_metadata.priority).
    counter(PRIORITY_COUNT, CounterType.packets) feedback_by_queue;

    apply {
        bool is_data = hdr.pds.pds_type == PDS_TYPE_RUD_REQ
                       || hdr.pds.pds_type == PDS_TYPE_ROD_REQ
                       || hdr.pds.pds_type == PDS_TYPE_RUDI_REQ
                       || hdr.pds.pds_type == PDS_TYPE_UUD_REQ
                       || hdr.pds.pds_type == PDS_TYPE_RUD_CC_REQ
                       || hdr.pds.pds_type == PDS_TYPE_ROD_CC_REQ;
        if (hdr.pds.isValid() && !is_data) {
            feedback_by_queue.count((bit<32>) std_meta.priority);
        }
    }
}

#endif
