// A generic function's type parameter given match_kind: no value of it can be stored,
// so the call is refused at the type argument (p4c: "Cannot cast implicitly type
// 'bit<32>' to type 'match_kind'"); this once crashed lowering.
#include <core.p4>
#include <v1model.p4>
header h_t { bit<8> f; }
struct H { h_t h; }
struct M { }
void f<T>(in tuple<T> x) { }
parser P(packet_in p, out H h, inout M m, inout standard_metadata_t s) {
    state start { p.extract(h.h); transition accept; }
}
control V(inout H h, inout M m) { apply { } }
control I(inout H h, inout M m, inout standard_metadata_t s) {
    apply { f<match_kind>({ 32w2 }); }
}
control E(inout H h, inout M m, inout standard_metadata_t s) { apply { } }
control C(inout H h, inout M m) { apply { } }
control D(packet_out p, in H h) { apply { p.emit(h.h); } }
V1Switch(P(), V(), I(), E(), C(), D()) main;
