// Receiver-driven credit marking (UEC CONTROL / CREDIT packets).
#ifndef FABRIC_CREDIT_P4
#define FABRIC_CREDIT_P4

#include "../header.p4"
#include "port_state.p4"

// A credit travels from receiver to sender; the data it releases will leave
// through the port the credit arrived on, so that port's congestion decides.
control CreditMarking(inout headers_t hdr,
                      inout fabric_metadata_t meta,
                      inout standard_metadata_t std_meta) {
    // Credit rate per arrival port (ExpressPass-style); unconfigured: all green.
    meter(PORT_COUNT, MeterType.packets) credit_rate;
    counter(PORT_COUNT, CounterType.packets) credits_marked;
    counter(PORT_COUNT, CounterType.packets) credits_dropped;

    action reduce_credit(bit<8> shift) {
        hdr.pds_control.credit = hdr.pds_control.credit >> shift;
        hdr.pds_control.credit_marked = 1;
        // UEC sends UDP checksum zero; a changed credit could not match one anyway.
        hdr.udp.checksum = 0;
    }

    /* Occupancy bands per arrival port: the queue depth range (packets) of
       the port and how far a credit crossing it is reduced (shifted right).
       No band matched: the credit is left as it is. */
    table credit_bands {
        key = {
            std_meta.ingress_port: exact @name("ingress_port");
            meta.observed_depth:   range @name("queue_depth");
        }
        actions = { reduce_credit; NoAction; }
        default_action = NoAction();
        size = CREDIT_BANDS_SIZE;
    }

    apply {
        if (hdr.pds_control.isValid() && hdr.pds.next_hdr == PDS_CTL_CREDIT) {
            bit<2> color = 0;
            credit_rate.execute_meter((bit<32>) std_meta.ingress_port, color);
            if (color == METER_RED) {
                mark_to_drop(std_meta);
                credits_dropped.count((bit<32>) std_meta.ingress_port);
            } else {
                port_queue_depth.read(meta.observed_depth, (bit<32>) std_meta.ingress_port);
                if (credit_bands.apply().hit) {
                    credits_marked.count((bit<32>) std_meta.ingress_port);
                }
            }
        }
    }
}

#endif
