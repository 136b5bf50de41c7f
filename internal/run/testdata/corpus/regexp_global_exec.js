const re = /o(\w)/g;
const s = 'foo boo zoo';
const found = [];
let m;
while ((m = re.exec(s)) !== null) found.push([m[0], m[1], m.index, re.lastIndex]);
return [found, s.match(/o+/g), s.match(/x/g), 'aaa'.match(/a*?/)[0]];
