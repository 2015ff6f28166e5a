#if 1
const bit<8> X = 1;
