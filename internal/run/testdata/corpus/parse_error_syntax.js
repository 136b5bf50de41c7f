const x = ;
return x;
