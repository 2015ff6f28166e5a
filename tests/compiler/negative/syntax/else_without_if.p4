const bit<8> X = 1;
#else
