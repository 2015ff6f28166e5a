// Corpus 348: P4_16 default values. "{ m = 7, ... }" gives the fields it leaves out
// their defaults (0, false, an invalid header, recursively into structs); "{#}" is an
// invalid header, as an assignment (which removes the header from the packet), a cast
// "(T){#}" and a member of a header union.
#include <core.p4>
#include <v1model.p4>

header tag_t {
    bit<8> a;
    bit<8> b;
}

header opt_t {
    bit<8> p;
    bit<8> q;
}

header alt_t { bit<16> w; }

header_union choice_u {
    opt_t opt;
    alt_t alt;
}

struct inner_t {
    bit<8> i;
    bool   f;
}

struct headers_t {
    tag_t tag;
    opt_t opt;
}

struct meta_t { bit<8> seen; }

// A local of this type holds a header and a header union beside plain values.
struct scratch_t {
    bit<8>   m;
    inner_t  in1;
    opt_t    spare;
    choice_u pick;
}

parser TagParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.tag);
        pkt.extract(hdr.opt);
        transition accept;
    }
}

control NoVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control Defaults(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 2;
        scratch_t fresh = { m = 7, ... };
        hdr.tag.a = fresh.m;
        if (!fresh.in1.f && fresh.in1.i == 0 && !fresh.spare.isValid() &&
                !fresh.pick.opt.isValid() && !fresh.pick.alt.isValid()) {
            hdr.tag.b = 0x11;
        }
        if (hdr.opt.p == 0xff) {
            hdr.opt = {#};
        }
        opt_t replacement = { p = 5, ... };
        if (hdr.opt.p == 0xee) {
            hdr.opt = replacement;
        }
        tag_t none = (tag_t){#};
        if (!none.isValid()) {
            hdr.tag.a = hdr.tag.a + 1;
        }
    }
}

control NoEgress(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    apply { }
}

control NoCompute(inout headers_t hdr, inout meta_t meta) { apply { } }

control TagDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.tag);
        pkt.emit(hdr.opt);
    }
}

V1Switch(TagParser(), NoVerify(), Defaults(), NoEgress(), NoCompute(), TagDeparser()) main;
