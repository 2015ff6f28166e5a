// Packet I/O with the controller through the CPU port.
#ifndef FABRIC_PACKET_IO_P4
#define FABRIC_PACKET_IO_P4

#include "../header.p4"

control PacketIoIngress(inout headers_t hdr,
                        inout fabric_metadata_t meta,
                        inout standard_metadata_t std_meta) {
    action punt_to_cpu() {
        std_meta.egress_spec = CPU_PORT;
        meta.punt_reason = PUNT_REASON_ACL;
    }

    /* Traffic the controller wants to receive (routing protocols, probes):
       sent to the CPU port instead of being forwarded. Empty: nothing punted. */
    table punt_rules {
        key = {
            meta.partition:          ternary @name("partition");
            hdr.ethernet.ether_type: ternary @name("ether_type");
            hdr.ipv4.protocol:       ternary @name("ip_proto");
            meta.l4_dst_port:        ternary @name("l4_dst_port");
        }
        actions = { punt_to_cpu; NoAction; }
        default_action = NoAction();
        size = PUNT_RULES_SIZE;
    }

    apply {
        punt_rules.apply();
    }
}

control PacketIoEgress(inout headers_t hdr,
                       in fabric_metadata_t meta,
                       in standard_metadata_t std_meta) {
    apply {
        hdr.packet_in.setValid();
        hdr.packet_in.ingress_port = std_meta.ingress_port;
        hdr.packet_in._pad0 = 0;
        hdr.packet_in.reason = meta.punt_reason;
    }
}

#endif
