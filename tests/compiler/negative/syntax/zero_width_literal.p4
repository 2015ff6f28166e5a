const bit<8> X = 0w5;
