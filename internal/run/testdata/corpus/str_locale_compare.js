// localeCompare orders as node's ICU collation does (not by code units)
const people = [{name: 'bob'}, {name: 'Alice'}, {name: 'émile'}, {name: 'Eve'}, {name: 'alice'}, {name: 'Zoë'}, {name: 'zed'}];
const byName = people.map(p => p.name).sort((a, b) => a.localeCompare(b));
const files = ['file10.txt', 'file2.txt', 'File1.txt', 'file1.txt'];
const natural = [...files].sort((a, b) => a.localeCompare(b, undefined, {numeric: true, sensitivity: 'base'}));
const base = ['a', 'A', 'á', 'b'].map(x => 'a'.localeCompare(x, 'en', {sensitivity: 'base'}));
return [byName, natural, base, 'a'.localeCompare('B'), 'B'.localeCompare('a'), 'ä'.localeCompare('z', 'sv')];
