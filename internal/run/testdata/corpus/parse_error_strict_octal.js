return 010;
