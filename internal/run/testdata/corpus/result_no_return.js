const x = 1;
console.log('no explicit return', x);
