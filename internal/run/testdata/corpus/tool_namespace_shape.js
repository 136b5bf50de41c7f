return [Object.keys(tools).sort(), Object.keys(tools.math).sort(), Object.keys(tools.string).sort(), 'add' in tools.math, 'nope' in tools.math];
