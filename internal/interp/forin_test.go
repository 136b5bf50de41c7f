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
