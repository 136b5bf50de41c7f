return [/^.$/u.test('😀'), /^.$/.test('😀'), '😀'.match(/./gu).length, /\p{L}+/u.exec('héllo wörld')[0], /\u{1F600}/u.test('😀'), /[\u{1F600}-\u{1F64F}]/u.test('🙂'), 'ǅ'.match(/\p{Lt}/u)[0]];
