package interp

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestTypedArraySnapshots runs programs holding buffers and views across snapshots in both
// formats: bytes, resizable and detached buffers, length-tracking views and the aliasing of
// several views of one buffer survive.
func TestTypedArraySnapshots(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		src  string
		want string
	}{
		{"aliasing views", `const b = new ArrayBuffer(8); const u8 = new Uint8Array(b); const u32 = new Uint32Array(b, 4, 1); const dv = new DataView(b, 2); for (let i = 0; i < 8; i++) u8[i] = i * 3; u32[0] = 0xffeeddcc; dv.setInt8(0, -1); [u8.join(), u32[0], dv.getUint8(0), u8.buffer === u32.buffer, dv.buffer === b].join('|')`, "0,3,255,9,204,221,238,255|4293844428|255|true|true"},
		{"resizable and tracking", `const b = new ArrayBuffer(2, {maxByteLength: 16}); const t = new Uint16Array(b); let lens = []; for (let i = 1; i <= 8; i++) { b.resize(i * 2); t[i - 1] = i; lens.push(t.length) } b.resize(4); [lens.join(), t.join(), b.maxByteLength, b.resizable].join('|')`, "1,2,3,4,5,6,7,8|1,2|16|true"},
		{"detached", `const b = new ArrayBuffer(4); const u = new Uint8Array(b); u[1] = 7; const c = b.transfer(); let x = 0; for (let i = 0; i < 20; i++) x += i; [b.detached, b.byteLength, u.length, new Uint8Array(c)[1], x].join()`, "true,0,0,7,190"},
		{"iterator over a typed array", `const a = Float64Array.of(1.5, -0, NaN, 4); const it = a.values(); const out = []; for (const v of it) out.push(Object.is(v, -0) ? '-0' : String(v)); out.join()`, "1.5,-0,NaN,4"},
		{"all kinds", `const ks = [Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array, Uint32Array, Float32Array, Float64Array]; const arrs = ks.map(K => K.from([1, -2, 300.5])); let s = 0; for (let i = 0; i < 30; i++) s += i; arrs.map(a => a.join(' ')).join('|') + '|' + s`, "1 -2 44|1 254 44|1 0 255|1 -2 300|1 65534 300|1 -2 300|1 4294967294 300|1 -2 300.5|1 -2 300.5|435"},
		{"subclass", `class V extends Uint8Array { total() { return this.reduce((a, b) => a + b, 0) } } const v = new V([1, 2, 3]); let s = 0; for (let i = 0; i < 10; i++) s += v.total(); s`, "60"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, thrown, snaps := runWithSnapshotsBoth(t, tt.src, 5)
			require.False(t, thrown, got)
			require.Equal(t, tt.want, got)
			require.Positive(t, snaps)
		})
	}
}

// TestTypedArrayCasesUnderSnapshots reruns the node-checked typed array programs with the VM
// snapshotted and restored every 13 instructions, alternating the formats.
func TestTypedArrayCasesUnderSnapshots(t *testing.T) {
	t.Parallel()
	for _, tt := range typedArrayCases {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, thrown, _ := runWithSnapshotsBoth(t, tt.src, 13)
			if thrown {
				name, _, _ := strings.Cut(got, ":")
				got = "throws " + name
			}
			require.Equal(t, tt.want, got, tt.src)
		})
	}
}
