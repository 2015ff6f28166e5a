// Partition tags: how a packet's partition crosses from switch to switch.
#ifndef FABRIC_PARTITION_TAG_P4
#define FABRIC_PARTITION_TAG_P4

#include "../header.p4"

// On a fabric port every packet of a non-zero partition leaves with one 802.1Q
// tag whose VID is its partition's tag and whose PCP is its queue class; a
// packet of partition 0 leaves untagged, so no host can forge a partition by
// tagging. The next switch classifies by the tag (PartitionIngress) and removes
// it. Toward a host the packet leaves untagged, or with the host's VLAN.
control PartitionTag(inout headers_t hdr,
                     inout fabric_metadata_t meta,
                     in standard_metadata_t std_meta) {
    action fabric_port() {
    }
    action access_port() {
    }
    action tagged_access_port(vlan_id_t vlan_id) {
        meta.partition_tag = vlan_id;
    }

    /* Egress ports whose tags this control owns: links to other switches, and
       the ports of partition members (untagged, or tagged with the partition's
       host VLAN). Ports with no entry leave the packet's tag as it is. */
    table tag_ports {
        key = {
            std_meta.egress_port: exact @name("egress_port");
        }
        actions = { fabric_port; access_port; tagged_access_port; NoAction; }
        default_action = NoAction();
        size = PORT_COUNT;
    }

    action set_tag(vlan_id_t vlan_id) {
        meta.partition_tag = vlan_id;
    }

    /* Partition to the VID of its tag on fabric links. No entry (partition 0):
       untagged on fabric links. */
    table partition_tags {
        key = {
            meta.partition: exact @name("partition");
        }
        actions = { set_tag; NoAction; }
        default_action = NoAction();
        size = PARTITION_COUNT;
    }

    apply {
        bool push = false;
        bool pop = false;
        if (meta.border_egress) {
            // A border port: PartitionEgress chose the link's tag (or none).
            push = meta.border_push;
            pop = !meta.border_push;
        } else {
            switch (tag_ports.apply().action_run) {
                fabric_port: {
                    if (partition_tags.apply().hit) {
                        push = true;
                    } else {
                        pop = true;
                    }
                }
                access_port: {
                    pop = true;
                }
                tagged_access_port: {
                    push = true;
                }
            }
        }
        if (push) {
            if (!hdr.vlan.isValid()) {
                hdr.vlan.setValid();
                hdr.vlan.ether_type = hdr.ethernet.ether_type;
                hdr.ethernet.ether_type = ETHERTYPE_VLAN;
            }
            hdr.vlan.pcp = std_meta.priority;
            hdr.vlan.dei = 0;
            hdr.vlan.vlan_id = meta.partition_tag;
        } else if (pop && hdr.vlan.isValid()) {
            hdr.ethernet.ether_type = hdr.vlan.ether_type;
            hdr.vlan.setInvalid();
        }
    }
}

#endif
