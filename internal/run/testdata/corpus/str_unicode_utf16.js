const s = 'a😀b';
return [s.length, [...s].length, s.charCodeAt(1), s.codePointAt(1), s.codePointAt(2), String.fromCodePoint(0x1F600) === '😀', String.fromCharCode(72, 105), [...s], s.split(''), s.slice(1, 2).length, 'é'.normalize('NFD').length, 'e\u0301'.normalize('NFC').length, '\ud83d'.length, '😀'.at(0) === '\ud83d', 'ß'.toUpperCase(), 'İ'.toLowerCase().length];
