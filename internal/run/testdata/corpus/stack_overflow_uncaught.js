function down(n) { return down(n + 1) + 1; }
console.log('recursing');
return down(0);
