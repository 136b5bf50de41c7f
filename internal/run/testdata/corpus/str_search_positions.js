const s = 'abcabcabc';
return [s.indexOf('c', 3), s.lastIndexOf('a', 5), s.includes('ca', 7), s.startsWith('bc', 1), s.endsWith('ab', 7), s.indexOf(''), s.lastIndexOf(''), s.indexOf('x', -5), s.substr(2, 3), s.substring(-3, 2), s.slice(-3, -1), 'ﬀ'.normalize('NFKC'), String(Symbol('d')), [1, 2, 3].indexOf(3, -1)];
