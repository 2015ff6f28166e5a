// Corpus 009: serializable enum (enum bit<8> with explicit values) as a header field:
// comparisons with members, select on the enum, assignment of a member, casts.
#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dst_addr;
    bit<48> src_addr;
    bit<16> ether_type;
}

enum bit<8> Opcode_t {
    NOP = 0,
    INC = 1,
    DEC = 2,
    SET = 0x10
}

header cmd_t {
    Opcode_t op;
    bit<8>   value;
}

struct headers_t {
    ethernet_t ethernet;
    cmd_t      cmd;
}

struct metadata_t { }

parser ParserImpl(packet_in pkt, out headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t std_meta) {
    state start {
        pkt.extract(hdr.ethernet);
        pkt.extract(hdr.cmd);
        transition select(hdr.cmd.op) {
            Opcode_t.NOP: accept;
            default: accept;
        }
    }
}

control IngressImpl(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t std_meta) {
    apply {
        std_meta.egress_spec = 2;
        if (hdr.cmd.op == Opcode_t.INC) {
            hdr.cmd.value = hdr.cmd.value + 1;
        } else if (hdr.cmd.op == Opcode_t.DEC) {
            hdr.cmd.value = hdr.cmd.value - 1;
        } else if (hdr.cmd.op == Opcode_t.SET) {
            hdr.cmd.value = 0xFF;
        } else if ((bit<8>) hdr.cmd.op > 0x10) {
            std_meta.egress_spec = 3;
        }
        if (hdr.cmd.op == Opcode_t.INC || hdr.cmd.op == Opcode_t.DEC || hdr.cmd.op == Opcode_t.SET) {
            hdr.cmd.op = Opcode_t.NOP;
        }
    }
}

control NoVerify(inout headers_t hdr, inout metadata_t meta) { apply { } }

control EgressImpl(inout headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t std_meta) {
    apply { }
}

control NoCompute(inout headers_t hdr, inout metadata_t meta) { apply { } }

control DeparserImpl(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.ethernet);
        pkt.emit(hdr.cmd);
    }
}

V1Switch(ParserImpl(), NoVerify(), IngressImpl(), EgressImpl(), NoCompute(),
         DeparserImpl()) main;
