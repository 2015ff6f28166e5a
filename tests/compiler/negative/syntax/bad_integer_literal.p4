const bit<8> X = 12abc;
