let s = '';
for (let i = 0; i < 100000; i++) s += i % 10;
const parts = [];
for (let i = 0; i < 1000; i++) parts.push('item' + i);
const joined = parts.join(',');
return [s.length, s.slice(0, 12), s.slice(-5), joined.length, joined.split(',').length, s.indexOf('9876'), s.lastIndexOf('0123')];
