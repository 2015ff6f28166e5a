// A verify-checksum control whose headers parameter is `in` where v1model's
// VerifyChecksum declares `inout`: p4c cannot unify the two control types.
#include <core.p4>
#include <v1model.p4>

header h_t { bit<8> a; }
struct headers_t { h_t h; }
struct meta_t { }

parser P(packet_in p, out headers_t h, inout meta_t m, inout standard_metadata_t s) {
    state start { p.extract(h.h); transition accept; }
}
control Verify(in headers_t h, inout meta_t m) { apply { } }
control I(inout headers_t h, inout meta_t m, inout standard_metadata_t s) { apply { } }
control E(inout headers_t h, inout meta_t m, inout standard_metadata_t s) { apply { } }
control C(inout headers_t h, inout meta_t m) { apply { } }
control D(packet_out p, in headers_t h) { apply { p.emit(h.h); } }
V1Switch(P(), Verify(), I(), E(), C(), D()) main;
