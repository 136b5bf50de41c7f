package interp

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
)

// errorStacks are programs and the stack their error has, as node prints it for the same
// text (the file name is <anonymous> here, as V8 writes it for a script without one). Frames
// of built-ins are not listed (node lists "at JSON.parse (<anonymous>)" above parse's frame
// in the fourth case).
var errorStacks = []struct{ name, src, want string }{
	{"nested functions", "function inner() { return new Error(\"boom\") }\nfunction outer() { return inner() }\nconst e = outer();\nreturn e.stack",
		"Error: boom\n    at inner (<anonymous>:1:27)\n    at outer (<anonymous>:2:27)\n    at <anonymous>:3:11"},
	{"class method and arrow", "const f = () => { throw new TypeError(\"t\") };\nclass A { m() { f() } }\ntry { new A().m() } catch (e) { return e.stack }",
		"TypeError: t\n    at f (<anonymous>:1:25)\n    at A.m (<anonymous>:2:17)\n    at <anonymous>:3:15"},
	{"object method", "const o = { f() { throw new Error(\"x\") } };\nfunction g() { o.f() }\ntry { g() } catch (e) { return e.stack }",
		"Error: x\n    at Object.f (<anonymous>:1:25)\n    at g (<anonymous>:2:18)\n    at <anonymous>:3:7"},
	{"error of a built-in", "function parse(s) { return JSON.parse(s) }\ntry { parse(\"{\") } catch (e) { return e.stack.split(\"\\n\").slice(1).join(\"\\n\") }",
		"    at parse (<anonymous>:1:33)\n    at <anonymous>:2:7"},
	{"at most ten frames", "function r(n) { if (n === 0) throw new Error(\"deep\"); r(n - 1) }\ntry { r(20) } catch (e) { return e.stack.split(\"\\n\").length }",
		"11"},
}

// TestErrorStackHasFrames: an error's stack lists the frames that made it, innermost first, as
// V8 formats them.
func TestErrorStackHasFrames(t *testing.T) {
	t.Parallel()
	for _, tc := range errorStacks {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, thrown := runProgram(t, tc.src)
			require.False(t, thrown, got)
			require.Equal(t, tc.want, got)
		})
	}
}

// An error's frames are part of snapshots: the stack read after a restore is the one the
// error was made with.
func TestErrorStackSurvivesSnapshots(t *testing.T) {
	t.Parallel()
	const src = "function inner() { return new Error(\"boom\") }\nfunction outer() { return inner() }\nconst e = outer();\nawait later();\nreturn e.stack"
	for _, format1 := range []bool{false, true} {
		require.Equal(t, "Error: boom\n    at inner (<anonymous>:1:27)\n    at outer (<anonymous>:2:27)\n    at <anonymous>:3:11",
			resultAfterRestore(t, src, format1), "format 1: %v", format1)
	}
}

// resultAfterRestore runs src until it waits on later(), saves the VM (in format 1 or 2),
// restores it into a new VM, settles later() and returns the program's result as a string.
func resultAfterRestore(t *testing.T, src string, format1 bool) string {
	t.Helper()
	h := &testHost{}
	vm := waitingVMIn(t, New(Config{Host: h}), src)
	var data []byte
	var err error
	if format1 {
		data, err = vm.SnapshotFormat1()
	} else {
		data, err = vm.Snapshot()
	}
	require.NoError(t, err)
	vm2, err := Restore(data, Config{Host: h})
	require.NoError(t, err)
	require.NoError(t, vm2.SettleHostPromise(h.pending[0], true, Undefined()))
	st, err := vm2.Run(context.Background(), RunOptions{})
	require.NoError(t, err)
	require.Equal(t, StatusDone, st)
	v, thrown := vm2.Result()
	require.False(t, thrown, vm2.ToGoString(v))
	return vm2.ToGoString(v)
}
