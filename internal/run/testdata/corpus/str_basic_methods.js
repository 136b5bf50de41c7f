const s = 'Hello, World';
return [s.length, s[0], s.at(-1), s.charAt(4), s.charCodeAt(0), s.indexOf('o'), s.lastIndexOf('o'), s.includes('World'), s.startsWith('Hell'), s.endsWith('d'), s.slice(-5), s.slice(2, -2), s.substring(5, 2), s.toUpperCase(), s.toLowerCase(), s.split(', '), s.concat('!', '?'), s.search('W')];
