// Packet trimming of UEC data packets that meet a congested egress port.
#ifndef FABRIC_TRIMMING_P4
#define FABRIC_TRIMMING_P4

#include "../header.p4"
#include "port_state.p4"

// Decides in ingress, before queueing, so that the trimmed packet can take
// the high-priority queue. A port is congested when either signal says so:
// - data_rate[port] is red: a virtual data queue that drains at the link's rate
//   and holds the trim threshold. It needs nothing but P4Runtime (a MeterEntry),
//   so it works where the queue builds outside the switch, as on links shaped by
//   tc, and on simple_switch_grpc, which cannot slow its own queues at run time.
// - port_queue_depth[port] >= threshold: the switch's own data queue.
// Neither counts trimmed packets (a red packet takes no tokens, and trimmed
// packets do not write port_queue_depth), so a port that stops being
// overloaded stops trimming: the headers in the priority queue cannot keep it
// congested.
control TrimDecision(inout headers_t hdr,
                     inout fabric_metadata_t meta,
                     inout standard_metadata_t std_meta) {
    counter(PORT_COUNT, CounterType.packets_and_bytes) trimmed_packets;
    /* Per egress port, in packets: configure rate = the link's packets/s and
       burst = the trim threshold (both buckets alike). Executed by the data
       packets of ports in trim_thresholds. Unconfigured: always green. */
    meter(PORT_COUNT, MeterType.packets) data_rate;

    action set_trim_threshold(queue_depth_t depth) {
        meta.trim_threshold = depth;
    }

    /* Egress ports that trim, with the depth of the switch's data queue
       (packets) at or above which the port counts as congested whatever its
       meter says. No entry: the port never trims. */
    table trim_thresholds {
        key = {
            std_meta.egress_spec: exact @name("egress_port");
        }
        actions = { set_trim_threshold; NoAction; }
        default_action = NoAction();
        size = PORT_COUNT;
    }

    action trim_to(bit<16> length, dscp_t trimmed_dscp, bit<3> queue) {
        meta.trim = true;
        meta.trim_length = length;
        meta.trim_dscp = trimmed_dscp;
        meta.trim_priority = queue;
    }

    /* Trimmable DSCP codepoints: bytes kept (from the Ethernet header on),
       the DSCP a trimmed packet carries and the queue it is sent in. */
    table trim_classes {
        key = {
            hdr.ipv4.dscp: exact @name("dscp");
        }
        actions = { trim_to; NoAction; }
        default_action = NoAction();
        size = TRIM_CLASSES_SIZE;
    }

    apply {
        bool is_data = hdr.pds.pds_type == PDS_TYPE_RUD_REQ
                       || hdr.pds.pds_type == PDS_TYPE_ROD_REQ
                       || hdr.pds.pds_type == PDS_TYPE_RUDI_REQ
                       || hdr.pds.pds_type == PDS_TYPE_UUD_REQ
                       || hdr.pds.pds_type == PDS_TYPE_RUD_CC_REQ
                       || hdr.pds.pds_type == PDS_TYPE_ROD_CC_REQ;
        if (hdr.pds.isValid() && is_data && trim_thresholds.apply().hit) {
            bit<2> color = 0;
            data_rate.execute_meter((bit<32>) std_meta.egress_spec, color);
            port_queue_depth.read(meta.observed_depth, (bit<32>) std_meta.egress_spec);
            if (color == METER_RED || meta.observed_depth >= meta.trim_threshold) {
                trim_classes.apply();
                if (meta.trim && std_meta.packet_length <= (bit<32>) meta.trim_length) {
                    // Already no longer than a trimmed packet: leave it whole.
                    meta.trim = false;
                }
                if (meta.trim) {
                    hdr.ipv4.dscp = meta.trim_dscp;
                    std_meta.priority = meta.trim_priority;
                    trimmed_packets.count((bit<32>) std_meta.egress_spec);
                }
            }
        }
    }
}

// Cuts a packet marked in ingress and fixes its IPv4/UDP lengths.
control TrimApply(inout headers_t hdr,
                  in fabric_metadata_t meta,
                  inout standard_metadata_t std_meta) {
    // Trimmed packets sent, by the queue they took (standard_metadata.priority).
    counter(PRIORITY_COUNT, CounterType.packets) trimmed_by_queue;

    apply {
        trimmed_by_queue.count((bit<32>) std_meta.priority);
        bit<16> l2_bytes = 14;
        if (hdr.vlan.isValid()) {
            l2_bytes = 18;
        }
        truncate((bit<32>) meta.trim_length);
        hdr.ipv4.total_len = meta.trim_length - l2_bytes;
        hdr.udp.length = hdr.ipv4.total_len - 20;
        // UEC sends UDP checksum zero; a cut payload could not match one anyway.
        hdr.udp.checksum = 0;
    }
}

#endif
