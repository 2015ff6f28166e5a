// Negative: a foreign main package, but first a type error in the code (p4c checks all code first)
#include <core.p4>
control Pipe(inout bit<8> x);
package Top(Pipe p);
control C(inout bit<8> x) { apply { x = x + 16w1; } }
Top(C()) main;
