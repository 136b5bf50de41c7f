const s = 'a-b-c';
return [s.replace('-', '+'), s.replaceAll('-', '+'), s.replace(/-/g, m => `[${m}]`), 'John Smith'.replace(/(\w+)\s(\w+)/, '$2, $1'), 'x'.replace('x', '$&$&'), 'price: 10'.replace(/(?<num>\d+)/, '$<num>0'), 'aaa'.replace(/a/g, (m, off) => off), 'abc'.replace('', '_'), 'abc'.replaceAll('', '.'), 'literal$'.replace('$', '$$')];
