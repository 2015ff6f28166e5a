// The error is inside the included file; the location must point there.
#include "broken_include.inc"
const bit<8> AFTER = 1;
