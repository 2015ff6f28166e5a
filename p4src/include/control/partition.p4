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

    counter(PORT_COUNT, CounterType.packets_and_bytes) border_unmapped_in;

    bit<1> untagged_ok = 0;

    action border_port(bit<1> allow_untagged) {
        untagged_ok = allow_untagged;
    }

    /* Ingress ports that are links into another administrative domain, where
       partition tags are those agreed for the link, not this domain's. On such
       a port only border_tag_in says the partition; an untagged frame is
       partition 0 if allow_untagged, else dropped. No entry: not a border. */
    table border_ports {
        key = {
            std_meta.ingress_port: exact @name("ingress_port");
        }
        actions = { border_port; NoAction; }
        default_action = NoAction();
        size = PORT_COUNT;
    }

    /* (border port, VID of the link's tag) to the local partition; the tag is
       removed. No entry: the frame is dropped and counted
       (border_unmapped_in[ingress_port]), never given a partition. */
    table border_tag_in {
        key = {
            std_meta.ingress_port: exact @name("ingress_port");
            hdr.vlan.vlan_id:      exact @name("vlan_id");
        }
        actions = { set_partition_untag; NoAction; }
        default_action = NoAction();
        size = PARTITION_MAP_SIZE;
    }

    action border_drop() {
        mark_to_drop(std_meta);
        meta.dropped = true;
        border_unmapped_in.count((bit<32>) std_meta.ingress_port);
    }

    apply {
        meta.partition = 0;
        if (border_ports.apply().hit) {
            if (hdr.vlan.isValid()) {
                if (!border_tag_in.apply().hit) {
                    border_drop();
                }
            } else if (untagged_ok == 0) {
                border_drop();
            }
        } else {
            partitions.apply();
        }
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

    counter(PARTITION_COUNT, CounterType.packets_and_bytes) border_unmapped_out;

    action border_egress_port() {
    }

    /* Egress ports that are links into another administrative domain: a packet
       leaves only with the tag border_tag_out gives its partition there. */
    table border_egress_ports {
        key = {
            std_meta.egress_port: exact @name("egress_port");
        }
        actions = { border_egress_port; NoAction; }
        default_action = NoAction();
        size = PORT_COUNT;
    }

    action border_set_tag(vlan_id_t vlan_id) {
        meta.border_egress = true;
        meta.border_push = true;
        meta.partition_tag = vlan_id;
    }
    action border_untagged() {
        meta.border_egress = true;
        meta.border_push = false;
    }

    /* (border port, local partition) to the VID agreed for the link, or
       untagged (partition 0 where the link allows it). No entry: the packet is
       dropped and counted (border_unmapped_out[partition]). */
    table border_tag_out {
        key = {
            std_meta.egress_port: exact @name("egress_port");
            meta.partition:       exact @name("partition");
        }
        actions = { border_set_tag; border_untagged; NoAction; }
        default_action = NoAction();
        size = PARTITION_MAP_SIZE;
    }

    apply {
        meta.border_egress = false;
        if (port_partitions.apply().hit) {
            if (meta.port_partition != meta.partition) {
                mark_to_drop(std_meta);
                meta.dropped = true;
                cross_partition_drops.count((bit<32>) meta.partition);
            }
        }
        if (!meta.dropped) {
            if (border_egress_ports.apply().hit) {
                if (!border_tag_out.apply().hit) {
                    mark_to_drop(std_meta);
                    meta.dropped = true;
                    border_unmapped_out.count((bit<32>) meta.partition);
                }
            }
        }
    }
}

#endif
