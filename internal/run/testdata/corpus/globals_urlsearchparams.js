const q = new URLSearchParams('a=1&b=2&a=3');
q.append('c', 'x y&z');
q.set('b', 'two');
const fromObj = new URLSearchParams({ k: 'v', n: 1 });
q.sort();
return [q.getAll('a'), q.get('missing'), q.has('c'), q.toString(), [...fromObj], fromObj.toString()];
