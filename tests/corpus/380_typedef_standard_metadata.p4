// Corpus 380: standard_metadata_t through a typedef (typedef standard_metadata_t std_m;),
// as p4c's own tests write it: the blocks' parameters are matched by the type they
// denote, not by how it is spelled.
#include <core.p4>
#include <v1model.p4>
typedef standard_metadata_t std_m;
header h_t { bit<8> f; }
struct H { h_t h; }
struct M { }
parser P(packet_in p, out H h, inout M m, inout std_m s) { state start { p.extract(h.h); transition accept; } }
control V(inout H h, inout M m) { apply { } }
control I(inout H h, inout M m, inout std_m s) { apply { s.egress_spec = 2; } }
control E(inout H h, inout M m, inout std_m s) { apply { } }
control C(inout H h, inout M m) { apply { } }
control D(packet_out p, in H h) { apply { p.emit(h.h); } }
V1Switch(P(), V(), I(), E(), C(), D()) main;
