// Partitions isolate tenants (or front-end and back-end traffic) on one fabric.
#ifndef FABRIC_PARTITION_P4
#define FABRIC_PARTITION_P4

#include "../header.p4"

control PartitionIngress(inout headers_t hdr,
                         inout fabric_metadata_t meta,
                         inout standard_metadata_t std_meta) {
    action set_partition(partition_id_t id) {
        meta.partition = id;
    }

    // The tag that said the partition (a fabric link's partition tag, or a host
    // port's VLAN) has done its job: the rest of the pipeline sees the packet
    // untagged, and egress tags it again for the port it leaves on.
    action set_partition_untag(partition_id_t id) {
        meta.partition = id;
        hdr.ethernet.ether_type = hdr.vlan.ether_type;
        hdr.vlan.setInvalid();
    }

    /* Ingress port, optionally with a VLAN ID, to the partition whose
       forwarding tables the packet uses: host ports by port (and VLAN), fabric
       ports by the partition tag. No match: partition 0. */
    table partitions {
        key = {
            std_meta.ingress_port: exact   @name("ingress_port");
            hdr.vlan.isValid():    ternary @name("vlan_is_valid");
            hdr.vlan.vlan_id:      ternary @name("vlan_id");
        }
        actions = { set_partition; set_partition_untag; NoAction; }
        default_action = NoAction();
        size = PARTITION_MAP_SIZE;
    }

    action set_queue(bit<3> queue) {
        std_meta.priority = queue;
    }

    /* Partition to its queue class (standard_metadata.priority: with priority
       queues the higher number drains first), on every switch, so that one
       partition's traffic queues apart from another's. No entry: queue 0. */
    table partition_queues {
        key = {
            meta.partition: exact @name("partition");
        }
        actions = { set_queue; NoAction; }
        default_action = NoAction();
        size = PARTITION_COUNT;
    }

    apply {
        meta.partition = 0;
        partitions.apply();
        partition_queues.apply();
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
