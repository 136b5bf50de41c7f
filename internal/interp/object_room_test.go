package interp

import "testing"

// TestObjectsMadeInOneAllocation checks the objects whose property storage or internal slots
// are allocated with them (function objects, arguments objects, dates) against node 20
// (TZ=UTC, strict code): their own keys, their growth past the first room, their prototypes.
func TestObjectsMadeInOneAllocation(t *testing.T) {
	t.Parallel()
	runJSCases(t, []jsCase{
		{"fn_keys_grow", `function f(a, b) {} f.x = 1; f.y = 2; f.z = 3; Object.getOwnPropertyNames(f).join() + '|' + f.length + f.name + '|' + (f.prototype.constructor === f) + '|' + [f.x, f.y, f.z].join()`, "length,name,prototype,x,y,z|2f|true|1,2,3"},
		{"fn_keys_delete", `function f() {} delete f.name; f.q = 1; Object.getOwnPropertyNames(f).join() + '|' + f.name`, "length,prototype,q|"},
		{"gen_keys", `function* g() {} g.extra = 1; Object.getOwnPropertyNames(g).join() + '|' + (Object.getPrototypeOf(g.prototype) === Object.getPrototypeOf(function*(){}).prototype)`, "length,name,prototype,extra|true"},
		{"closures_each_own", `const fs = []; for (let i = 0; i < 3; i++) fs.push(function () { return i; }); fs[0].tag = 'a'; [fs.map(f => f()).join(), fs[0].tag, fs[1].tag, fs[0].prototype === fs[1].prototype].join('|')`, "0,1,2|a||false"},
		{"arguments_shape", `function f() { 'use strict'; const a = arguments; let t; try { a.callee; } catch (e) { t = e.constructor.name; } return [a.length, Object.getOwnPropertyNames(a).join(), [...a].join(), t, Object.prototype.toString.call(a)].join('|'); } f(1, 'x', null)`, "3|0,1,2,length,callee|1,x,|TypeError|[object Arguments]"},
		{"arguments_many", `function f() { const a = arguments; a[10] = 'k'; a.extra = 1; return [a.length, Object.keys(a).join(), a[4], a[10]].join('|'); } f(0, 1, 2, 3, 4, 5, 6, 7, 8, 9)`, "10|0,1,2,3,4,5,6,7,8,9,10,extra|4|k"},
		{"arguments_none", `function f() { arguments.z = 2; return Object.getOwnPropertyNames(arguments).join() + '|' + arguments.length; } f()`, "length,callee,z|0"},
		{"date_subclass", `class D extends Date { year() { return this.getUTCFullYear(); } } const d = new D(Date.UTC(2021, 4, 6)); [d.year(), d instanceof Date, d instanceof D, Object.prototype.toString.call(d), d.toISOString()].join('|')`, "2021|true|true|[object Date]|2021-05-06T00:00:00.000Z"},
		{"date_copy", `const a = new Date(Date.UTC(2020, 0, 2)); const b = new Date(a); a.setUTCFullYear(1999); [a.getUTCFullYear(), b.getUTCFullYear(), a === b, typeof Reflect.construct(Date, [0], Object)].join('|')`, "1999|2020|false|object"},
		{"date_reflect_proto", `function P() {} P.prototype = Object.create(Date.prototype); const d = Reflect.construct(Date, [86400000], P); [Object.getPrototypeOf(d) === P.prototype, d.getTime(), d.toISOString()].join('|')`, "true|86400000|1970-01-02T00:00:00.000Z"},
	})
}
