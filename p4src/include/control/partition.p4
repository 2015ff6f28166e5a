// Partitions isolate tenants (or front-end and back-end traffic) on one fabric.
#ifndef FABRIC_PARTITION_P4
#define FABRIC_PARTITION_P4

#include "../header.p4"

control PartitionIngress(in headers_t hdr,
                         inout fabric_metadata_t meta,
                         in standard_metadata_t std_meta) {
    action set_partition(partition_id_t id) {
        meta.partition = id;
    }

    /* Ingress port, optionally with a VLAN ID, to the partition whose
       forwarding tables the packet uses. No match: partition 0. */
    table partitions {
        key = {
            std_meta.ingress_port: exact   @name("ingress_port");
            hdr.vlan.isValid():    ternary @name("vlan_is_valid");
            hdr.vlan.vlan_id:      ternary @name("vlan_id");
        }
        actions = { set_partition; NoAction; }
        default_action = NoAction();
        size = PARTITION_MAP_SIZE;
    }

    apply {
        meta.partition = 0;
        partitions.apply();
    }
}

control PartitionEgress(inout headers_t hdr,
                        inout fabric_metadata_t meta,
                        inout standard_metadata_t std_meta) {
    counter(PARTITION_COUNT, CounterType.packets_and_bytes) cross_partition_drops;

    action restrict_to_partition(partition_id_t id) {
        meta.port_partition = id;
    }

    /* Egress port to the one partition allowed to leave through it; a packet
       of another partition is dropped. Ports with no entry are shared. */
    table port_partitions {
        key = {
            std_meta.egress_port: exact @name("egress_port");
        }
        actions = { restrict_to_partition; NoAction; }
        default_action = NoAction();
        size = PORT_COUNT;
    }

    apply {
        if (port_partitions.apply().hit) {
            if (meta.port_partition != meta.partition) {
                mark_to_drop(std_meta);
                meta.dropped = true;
                cross_partition_drops.count((bit<32>) meta.partition);
            }
        }
    }
}

#endif
