function f() { return [arguments.length, Array.from(arguments), typeof arguments, Array.isArray(arguments)]; }
function g(a) { const inner = () => arguments[0]; return inner(); }
function sum() { let s = 0; for (let i = 0; i < arguments.length; i++) s += arguments[i]; return s; }
return [f(1, 'a', null), g('outer'), sum(1, 2, 3, 4)];
