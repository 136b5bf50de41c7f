const re = /(\d{4})-(\d{2})-(\d{2})/;
const m = '2024-03-15'.match(re);
return [re.test('x 1999-12-31 y'), m.slice(1), m.index, m.input, /abc/i.test('ABC'), /^b/m.test('a\nb'), /a.c/s.test('a\nc'), /a.c/.test('a\nc'), re.source, re.flags, /x/gimsuy.flags, String(/a\/b/)];
