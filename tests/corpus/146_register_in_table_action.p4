// Corpus 146: a 48-bit register used from a table action, its index an action parameter
// The entry's action data picks the cell; the action swaps the packet's source MAC
// into it and the previous one into the destination MAC (v1model.p4 register read/
// write inside actions; BMv2 docs/JSON_format.md register_read/register_write).
#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dst_addr;
    bit<48> src_addr;
    bit<16> ether_type;
}

header data_t {
    bit<32> f1;
    bit<32> f2;
    bit<16> h1;
    bit<8>  b1;
    bit<8>  b2;
}

struct headers_t {
    ethernet_t ethernet;
    data_t     data;
}

struct metadata_t { }

parser ParserImpl(packet_in pkt, out headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t std_meta) {
    state start {
        pkt.extract(hdr.ethernet);
        transition select(hdr.ethernet.ether_type) {
            0x88b5: parse_data;
            default: accept;
        }
    }
    state parse_data {
        pkt.extract(hdr.data);
        transition accept;
    }
}

control VerifyImpl(inout headers_t hdr, inout metadata_t meta) { apply { } }

control IngressImpl(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t std_meta) {
    register<bit<48>>(32w4) last_mac;
    action remember(bit<32> slot) {
        bit<48> prev;
        last_mac.read(prev, slot);
        last_mac.write(slot, hdr.ethernet.src_addr);
        hdr.ethernet.dst_addr = prev;
    }
    /* b1 chooses the slot. */
    table slots {
        key = { hdr.data.b1: exact; }
        actions = { remember; NoAction; }
        default_action = NoAction();
    }
    apply {
        std_meta.egress_spec = 2;
        if (hdr.data.isValid()) {
            slots.apply();
        }
    }
}

control EgressImpl(inout headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t std_meta) { apply { } }

control ComputeImpl(inout headers_t hdr, inout metadata_t meta) { apply { } }

control DeparserImpl(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.ethernet);
        pkt.emit(hdr.data);
    }
}

V1Switch(ParserImpl(), VerifyImpl(), IngressImpl(), EgressImpl(), ComputeImpl(),
         DeparserImpl()) main;
