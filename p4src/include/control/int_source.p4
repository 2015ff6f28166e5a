// INT source: starts INT-MD on watched flows.
#ifndef FABRIC_INT_SOURCE_P4
#define FABRIC_INT_SOURCE_P4

#include "../header.p4"
#include "int_start.p4"

control IntSource(inout headers_t hdr,
                  inout fabric_metadata_t meta,
                  in standard_metadata_t std_meta) {
    IntStart() int_start;

    action start_int(bit<16> instructions, bit<8> hop_budget, bit<16> domain_id) {
        meta.int_start_instructions = instructions;
        meta.int_start_hop_budget = hop_budget;
        meta.int_start_domain_id = domain_id;
    }

    /* INT watchlist: flows (5-tuple and ingress port) this node starts INT-MD
       on, with the instruction bitmap, hop budget and domain ID to use. */
    table int_watchlist {
        key = {
            std_meta.ingress_port: ternary @name("ingress_port");
            hdr.ipv4.src_addr:     ternary @name("ipv4_src");
            hdr.ipv4.dst_addr:     ternary @name("ipv4_dst");
            hdr.ipv4.protocol:     ternary @name("ip_proto");
            meta.l4_src_port:      ternary @name("l4_src_port");
            meta.l4_dst_port:      ternary @name("l4_dst_port");
        }
        actions = { start_int; NoAction; }
        default_action = NoAction();
        size = INT_WATCHLIST_SIZE;
    }

    apply {
        if (hdr.udp.isValid() || (hdr.tcp.isValid() && hdr.tcp.data_offset == 5)) {
            if (int_watchlist.apply().hit) {
                int_start.apply(hdr, meta);
            }
        }
    }
}

#endif
