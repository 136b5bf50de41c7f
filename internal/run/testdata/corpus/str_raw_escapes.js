return [String.raw`\n${1}\t`, String.raw({ raw: ['a', 'b', 'c'] }, 1, 2, 3), '\x41\u0042\u{43}', '\'quote\'', "tab\there", '\0'.length, 'line\
continued'];
