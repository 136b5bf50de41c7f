const key = 'dyn';
const { [key]: val, [`${key}2`]: val2 = 'default' } = { dyn: 42 };
const obj = {};
({ a: obj.first, b: obj['second'] } = { a: 1, b: 2 });
const arr = [];
[arr[0], arr[1]] = ['x', 'y'];
return { val, val2, obj, arr };
