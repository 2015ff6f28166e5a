// Corpus 345: compound assignments (P4_16 1.2.5, "a op= b" means "a = a op b"), each
// operator once on header fields, a bool flag with &&= and ||=, and a loop whose
// update is "i += 1". The result is sent out of port 2 for the STF to read.
#include <core.p4>
#include <v1model.p4>

header calc_t {
    bit<8>  a;
    bit<8>  b;
    bit<8>  c;
    bit<8>  d;
    bit<16> e;
    bit<8>  flags;
}

struct headers_t { calc_t calc; }
struct meta_t { bit<8> steps; }

parser CalcParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.calc);
        transition accept;
    }
}

control NoVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control Calc(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    action scale(bit<16> factor) {
        hdr.calc.e *= factor;
        hdr.calc.e >>= 1;
    }

    apply {
        sm.egress_spec = 2;
        hdr.calc.a += 3;
        hdr.calc.a |+|= 250;
        hdr.calc.b -= 1;
        hdr.calc.b ^= 0xff;
        hdr.calc.c <<= 2;
        hdr.calc.c |= 1;
        hdr.calc.d &= 0x0f;
        hdr.calc.d /= 2;
        hdr.calc.d %= 8;   // a power of two (a mask): p4c refuses a run-time % by others
        scale(6);
        bool ok = hdr.calc.flags != 0;
        ok &&= hdr.calc.a == 255;
        ok ||= hdr.calc.b == 0;
        meta.steps = 0;
        for (bit<8> i = 0; i < 3; i += 1) {
            hdr.calc.b |-|= 1;
            meta.steps += 1;
        }
        if (ok) {
            hdr.calc.flags = meta.steps;
        }
    }
}

control NoEgress(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    apply { }
}

control NoCompute(inout headers_t hdr, inout meta_t meta) { apply { } }

control CalcDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.calc); }
}

V1Switch(CalcParser(), NoVerify(), Calc(), NoEgress(), NoCompute(), CalcDeparser()) main;
