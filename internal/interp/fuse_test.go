package interp

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/internal/interp/bytecode"
)

// TestFusedInstructions checks programs whose hot sequences run as fused instructions: the
// comparisons with every kind of conditional jump, and property reads of registers (results
// from node).
func TestFusedInstructions(t *testing.T) {
	t.Parallel()
	src := `function t(x) { const o = {k: x}; let r = [x === 1 || "n", x !== 1 && "m", x === "a" || 0, x !== "a" && 5, x === null, x === undefined ? "u" : "d", o.k === x, o.k !== 2 ? 1 : 0]; if (x === 2) r.push("two"); while (x !== 2 && r.length < 12) r.push(r.length); return r.join() } [t(1), t("a"), t(2), t(undefined)].join("|")`
	require.Equal(t, "true,false,0,5,false,d,true,1,8,9,10,11|n,m,true,false,false,d,true,1,8,9,10,11|n,m,0,5,false,d,true,0,two|n,m,0,5,false,u,true,1,8,9,10,11", evalJS(t, src))
	p, err := Compile(src)
	require.NoError(t, err)
	used := map[bytecode.Op]bool{}
	for _, fc := range p.Funcs {
		for _, in := range fc.Code {
			used[in.Op] = true
		}
	}
	for _, op := range []bytecode.Op{bytecode.OpGetRegProp, bytecode.OpStrictEqJump, bytecode.OpIntStrictEqJump, bytecode.OpIntStrictNeJump, bytecode.OpConstStrictEqJump, bytecode.OpConstStrictNeJump} {
		require.True(t, used[op], "%s in\n%s", op, p.Disassemble())
	}
}

// TestFusedComparisonsAndUpdates checks relational comparisons with jumps on values that are
// not numbers, and increments and decrements of registers, accessors and elements (results
// from node).
func TestFusedComparisonsAndUpdates(t *testing.T) {
	t.Parallel()
	src := `let r = []; let s = "1"; s++; r.push(typeof s, s); const o = {v: "5", get x() { r.push("get"); return this.v }, set x(v) { r.push("set" + v); this.v = v } }; o.x++; (o.x)--; const a = [1n]; a[0]++; r.push(typeof a[0]); for (let i = 0; i < 3; i++) r.push(i); let k = 10; k--; r.push(k);
const v = {valueOf() { r.push("vo"); return 2 }}; if (v < 3) r.push("lt"); if ("b" > "a") r.push("gt"); if (!(undefined <= 1)) r.push("nle"); if (1 >= v) r.push("x"); else r.push("ge"); let n = 0; while (n < 4) n += 1; r.push(n); r.join()`
	require.Equal(t, "number,2,get,set6,get,set5,bigint,0,1,2,9,vo,lt,gt,nle,vo,ge,4", evalJS(t, src))
}

// TestFusedReads checks captured property reads, register element reads (arrays with holes
// and out of range, strings, typed arrays, objects) and register increments on values that are
// not numbers (results from node).
func TestFusedReads(t *testing.T) {
	t.Parallel()
	src := `const cfg = {a: 1, f() { return this.a + 1 }}; function g() { return cfg.a + cfg.f() } const out = [g()]; function el(a, i) { return a[i] } const arr = [1, , 3]; Object.prototype[1] = "p"; out.push(el(arr, 0), el(arr, 1), el(arr, 5), el(arr, -1), el(arr, 1.5), el("xyz", 1), el(new Uint8Array([7, 8]), 1), el({k: 2}, "k")); delete Object.prototype[1]; let b = 1n; let s = "4"; function inc() { let c = b; c++; let d = s; ++d; return [typeof c, c, d] } out.push(...inc()); let z = null; function h() { return z.q } try { h() } catch (e) { out.push(e.name) } out.join()`
	require.Equal(t, "3,1,p,,,,y,8,2,bigint,2,5,TypeError", evalJS(t, src))
}

// TestFusedPropertyReadPosition checks that an error in the property read of a fused
// instruction has the position of the read.
func TestFusedPropertyReadPosition(t *testing.T) {
	t.Parallel()
	vm := New(Config{})
	p, err := Compile("function f(o) {\n  const n = 1\n  return n +\n    o.missing\n}\nf(undefined)")
	require.NoError(t, err)
	require.NoError(t, vm.Start(p))
	_, err = vm.Run(context.Background(), RunOptions{})
	require.NoError(t, err)
	v, thrown := vm.Result()
	require.True(t, thrown)
	name, msg, line, col := vm.DescribeError(v)
	require.Equal(t, "TypeError", name)
	require.Contains(t, msg, "reading 'missing'")
	require.Equal(t, []int{4, 7}, []int{line, col}) // as the instructions run one by one
}
