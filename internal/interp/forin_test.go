package interp

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestForInShadowing(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		src  string
		want string
	}{
		{name: "own and inherited keys once", src: "const p = {a: 1, b: 2}; const o = Object.create(p); o.b = 3; o.c = 4; let r = []; for (const k in o) r.push(k); r.join()", want: "b,c,a"},
		{name: "a non-enumerable own key hides an inherited one", src: "const p = {a: 1, b: 2}; const o = Object.create(p); Object.defineProperty(o, 'a', {value: 0}); let r = []; for (const k in o) r.push(k); r.join()", want: "b"},
		{name: "a middle prototype hides the top one", src: "const top = {x: 1, y: 2}; const mid = Object.create(top); Object.defineProperty(mid, 'x', {value: 0}); const o = Object.create(mid); o.z = 1; let r = []; for (const k in o) r.push(k); r.join()", want: "z,y"},
		{name: "plain object", src: "let r = []; for (const k in {a: 1, b: 2, 0: 3}) r.push(k); r.join()", want: "0,a,b"},
		{name: "class instance with methods", src: "class A { m() {} } const a = new A(); a.f = 1; let r = []; for (const k in a) r.push(k); r.join()", want: "f"},
		{name: "keys deleted during the loop are skipped", src: "const o = {a: 1, b: 2, c: 3}; let r = []; for (const k in o) { r.push(k); delete o.b; o.d = 4 } r.join()", want: "a,c"},
		{name: "non-enumerable and symbol keys are left out", src: "const o = {a: 1, [Symbol('s')]: 2}; Object.defineProperty(o, 'h', {value: 0, enumerable: false}); o.z = 3; let r = []; for (const k in o) r.push(k); r.join()", want: "a,z"},
		{name: "index keys come first in order", src: "const o = {b: 1}; o[10] = 1; o.a = 1; o[2] = 1; o['01'] = 1; let r = []; for (const k in o) r.push(k); r.join()", want: "2,10,b,a,01"},
		{name: "an enumerable key added to Object.prototype is listed", src: "Object.prototype.extra = 1; const o = {a: 1}; let r = []; for (const k in o) r.push(k); delete Object.prototype.extra; r.join()", want: "a,extra"},
		{name: "an enumerable method on a function prototype is listed", src: "function F() { this.x = 1 } F.prototype.m = function () {}; let r = []; for (const k in new F()) r.push(k); r.join()", want: "x,m"},
		{name: "an object without a prototype", src: "const o = Object.create(null); o.q = 1; o.p = 2; let r = []; for (const k in o) r.push(k); r.join()", want: "q,p"},
		{name: "an array prototype", src: "const o = Object.create([5, 6]); o.k = 1; let r = []; for (const k in o) r.push(k); r.join()", want: "k,0,1"},
		{name: "Object.keys of ordinary objects", src: "const o = {b: 1, a: 2, [Symbol('s')]: 3}; Object.defineProperty(o, 'h', {value: 0}); const p = Object.create({inherited: 1}); p.own = 1; const q = {z: 1, 5: 1, 1: 1}; [Object.keys(o), Object.keys(p), Object.keys(q), Object.keys({}).length, Object.keys(Object.create(null, {x: {value: 1, enumerable: true}}))].join('|')", want: "b,a|own|1,5,z|0|x"},
		{name: "a proxy prototype is asked only for unshadowed keys", src: "const log = []; const p = new Proxy({a: 1, b: 2}, {getOwnPropertyDescriptor(t, k) { log.push(k); return Reflect.getOwnPropertyDescriptor(t, k) }}); const o = Object.create(p); o.a = 0; let r = []; for (const k in o) r.push(k); r.join() + '|' + log.join()", want: "a,b|b"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, thrown := runProgram(t, tt.src)
			require.False(t, thrown, got)
			require.Equal(t, tt.want, got)
		})
	}
}
