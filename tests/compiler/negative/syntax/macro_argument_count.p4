#define ADD(a, b) ((a) + (b))
const bit<8> X = ADD(1);
