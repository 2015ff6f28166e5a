// INT-MD v2.1 in egress: node identity and domain, then source, transit and
// sink roles, a domain border's start of the next domain's INT, and the
// telemetry report built from a sink's clone.
#ifndef FABRIC_INT_MAIN_P4
#define FABRIC_INT_MAIN_P4

#include "../header.p4"
#include "int_source.p4"
#include "int_transit.p4"
#include "int_sink.p4"
#include "int_report.p4"
#include "int_domain_border.p4"
#include "l4_checksum.p4"

control IntEgress(inout headers_t hdr,
                  inout fabric_metadata_t meta,
                  inout standard_metadata_t std_meta) {
    IntSource() int_source;
    IntTransit() int_transit;
    IntSink() int_sink;
    IntReport() int_report;
    IntDomainBorder() border;
    IntHeaderSum() int_sum_before;
    IntHeaderSum() int_sum_after;
    L4ChecksumUpdate() l4_checksum;

    action set_int_node(node_id_t node_id, dscp_t int_dscp) {
        meta.int_node = true;
        meta.int_node_id = node_id;
        meta.int_dscp = int_dscp;
    }

    /* This switch as an INT node: its node ID and the DSCP that marks INT
       packets it sources. Left unset (the default), the switch does no INT. */
    table int_node {
        actions = { set_int_node; NoAction; }
        default_action = NoAction();
    }

    action set_int_domain(bit<16> domain_id) {
        meta.int_domain_known = true;
        meta.int_domain_id = domain_id;
    }

    /* The INT domain this switch belongs to (INT v2.1 Domain Specific ID):
       transit and sink act only on INT headers of this domain and leave any
       other domain's untouched. Left unset (the default), every INT header is
       this switch's. */
    table int_domain {
        actions = { set_int_domain; NoAction; }
        default_action = NoAction();
    }

    apply {
        int_node.apply();
        if (std_meta.instance_type == INSTANCE_EGRESS_CLONE) {
            if (meta.int_node) {
                int_report.apply(hdr, meta, std_meta);
            } else {
                mark_to_drop(std_meta);
            }
        } else if (meta.int_node && hdr.ipv4.isValid()) {
            int_domain.apply();
            bit<32> sum_before = 0;
            bit<32> sum_after = 0;
            int_sum_before.apply(hdr, sum_before);
            if (!hdr.int_shim.isValid()) {
                int_source.apply(hdr, meta, std_meta);
            }
            // Another domain's INT is skipped altogether: no hop pushed, hop
            // count and flags untouched, not sunk (INT v2.1 §5.7, Domain
            // Specific ID not known to this node).
            bool own_domain = true;
            if (hdr.int_md.isValid() && meta.int_domain_known
                    && hdr.int_md.domain_id != meta.int_domain_id) {
                own_domain = false;
            }
            if (hdr.int_md.isValid() && own_domain) {
                int_transit.apply(hdr, meta, std_meta);
            }
            // Before the sink, so that its report embeds a consistent packet;
            // a stripped packet's L4 checksum is then redone (checksum.p4).
            int_sum_after.apply(hdr, sum_after);
            l4_checksum.apply(hdr, meta, sum_before, sum_after);
            if (hdr.int_md.isValid() && own_domain) {
                int_sink.apply(hdr, meta, std_meta);
            }
            // After the sink: a border port starts the next domain's INT.
            border.apply(hdr, meta, std_meta);
        }
    }
}

#endif
