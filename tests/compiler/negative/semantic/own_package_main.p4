// Negative: a main package of the program's own type (p4c-bm2-ss compiles v1model: V1Switch)
#include <core.p4>
control Pipe(inout bit<8> x);
package Top(Pipe p);
control C(inout bit<8> x) { apply { x = x + 1; } }
Top(C()) main;
