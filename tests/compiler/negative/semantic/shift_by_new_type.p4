// A shift by a value of a new type (p4c: "The right operand of shift must be either an expression of type bit<S> or a compile-time known value that is a non-negative integer").
#include <core.p4>
#include <v1model.p4>
type bit<8> Amount_t;
header h_t { bit<32> a; Amount_t e; }
struct H { h_t h; }
struct M { }
parser P(packet_in p, out H h, inout M m, inout standard_metadata_t s) { state start { p.extract(h.h); transition accept; } }
control V(inout H h, inout M m) { apply { } }
control I(inout H h, inout M m, inout standard_metadata_t s) { apply { h.h.a = h.h.a << h.h.e; } }
control E(inout H h, inout M m, inout standard_metadata_t s) { apply { } }
control C(inout H h, inout M m) { apply { } }
control D(packet_out p, in H h) { apply { p.emit(h.h); } }
V1Switch(P(), V(), I(), E(), C(), D()) main;
