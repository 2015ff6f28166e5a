@name("unfinished)
const bit<8> X = 1;
