const up = await tools.string.upper({ text: 'hello world' });
const joined = await tools.string.concat({ parts: ['a', 'b', 'c'], separator: '-' });
const nosep = await tools.string.concat({ parts: ['x', 'y'] });
const split = await tools.string.split({ text: 'k=v;k2=v2', separator: ';' });
return { up: up.text, joined: joined.text, nosep: nosep.text, split: split.parts.map(p => p.split('=')) };
