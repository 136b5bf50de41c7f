const o = { a: 1, b: undefined };
const types = [typeof 1, typeof 'x', typeof true, typeof undefined, typeof null, typeof {}, typeof [], typeof (() => {}), typeof Symbol(), typeof undeclaredVariable, typeof class {}];
const del = [delete o.a, 'a' in o, 'b' in o, 'toString' in o, Object.hasOwn(o, 'toString'), 0 in [1], 1 in [1]];
return [types, del, o];
