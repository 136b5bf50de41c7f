const a = { name: 'a' };
a.self = a;
return a;
