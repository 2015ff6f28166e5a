// INT across administrative domains: at a border port this domain's INT ends
// (the sink strips it and reports to this domain's collector) and the next
// domain's begins, so that each domain's collector sees its own hops only.
#ifndef FABRIC_INT_DOMAIN_BORDER_P4
#define FABRIC_INT_DOMAIN_BORDER_P4

#include "../header.p4"
#include "int_start.p4"

control IntDomainBorder(inout headers_t hdr,
                        inout fabric_metadata_t meta,
                        in standard_metadata_t std_meta) {
    IntStart() int_start;

    action start_next_domain(bit<16> instructions, bit<8> hop_budget, bit<16> domain_id) {
        meta.int_start_instructions = instructions;
        meta.int_start_hop_budget = hop_budget;
        meta.int_start_domain_id = domain_id;
    }

    /* Egress ports leading into another INT domain, with the INT-MD header the
       packets this switch sank there (int_sink_ports) leave with: the next
       domain's ID, hop budget and instruction bitmap, and no hop of this one. */
    table int_domain_border {
        key = {
            std_meta.egress_port: exact @name("egress_port");
        }
        actions = { start_next_domain; NoAction; }
        default_action = NoAction();
        size = PORT_COUNT;
    }

    apply {
        // Only packets whose INT (of this domain) the sink just stripped.
        if (meta.int_stripped) {
            if (int_domain_border.apply().hit) {
                int_start.apply(hdr, meta);
                // TCP: the checksum is recomputed over the segment with the new
                // INT headers (checksum.p4).
                meta.l4_length = hdr.ipv4.total_len - 20;
            }
        }
    }
}

#endif
