package interp

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"
)

// testHost answers host calls: "add" sums numbers, "fail" throws, "abort" aborts,
// "later" returns a host promise.
type testHost struct {
	calls   []string
	pending []uint64
}

func (h *testHost) CallHost(vm *VM, id string, this Value, args []Value) (Value, error) {
	h.calls = append(h.calls, id)
	switch id {
	case "add":
		return Number(args[0].NumberValue() + args[1].NumberValue()), nil
	case "fail":
		return Undefined(), vm.Throw(vm.NewError("TypeError", "tool failed"))
	case "abort":
		return Undefined(), &Diagnostic{Kind: "ToolCallLimitExceeded", Message: "too many calls"}
	case "later":
		id, p := vm.NewHostPromise()
		h.pending = append(h.pending, id)
		return p, nil
	}
	return Undefined(), errors.New("unknown host function")
}

func newHostVM(t *testing.T, src string) (*VM, *testHost) {
	t.Helper()
	h := &testHost{}
	vm := New(Config{Host: h})
	for _, id := range []string{"add", "fail", "abort", "later"} {
		require.NoError(t, vm.Set(vm.Global(), id, vm.NewHostFunction(id, id, 0)))
	}
	p, err := Compile(src)
	require.NoError(t, err)
	require.NoError(t, vm.Start(p))
	return vm, h
}

func TestHostFunctions(t *testing.T) {
	t.Parallel()
	t.Run("call", func(t *testing.T) {
		t.Parallel()
		vm, h := newHostVM(t, "add(2, 3) * 2")
		st, err := vm.Run(context.Background(), RunOptions{})
		require.NoError(t, err)
		require.Equal(t, StatusDone, st)
		v, thrown := vm.Result()
		require.False(t, thrown)
		require.Equal(t, 10.0, v.NumberValue())
		require.Equal(t, []string{"add"}, h.calls)
	})
	t.Run("throw is catchable", func(t *testing.T) {
		t.Parallel()
		vm, _ := newHostVM(t, "let m; try { fail() } catch (e) { m = e.message } m")
		_, err := vm.Run(context.Background(), RunOptions{})
		require.NoError(t, err)
		v, _ := vm.Result()
		require.Equal(t, "tool failed", vm.ToGoString(v))
	})
	t.Run("diagnostic aborts", func(t *testing.T) {
		t.Parallel()
		vm, _ := newHostVM(t, "try { abort() } catch { } 1")
		_, err := vm.Run(context.Background(), RunOptions{})
		var d *Diagnostic
		require.ErrorAs(t, err, &d)
		require.Equal(t, "ToolCallLimitExceeded", d.Kind)
	})
	t.Run("host promise", func(t *testing.T) {
		t.Parallel()
		vm, h := newHostVM(t, "const [a, b] = [await later(), await later()]; a + b")
		st, err := vm.Run(context.Background(), RunOptions{})
		require.NoError(t, err)
		require.Equal(t, StatusWaiting, st)
		require.Equal(t, []uint64{1}, vm.pendingHostPromises())
		require.NoError(t, vm.SettleHostPromise(h.pending[0], true, Number(40)))
		st, err = vm.Run(context.Background(), RunOptions{})
		require.NoError(t, err)
		require.Equal(t, StatusWaiting, st)
		require.NoError(t, vm.SettleHostPromise(h.pending[1], true, Number(2)))
		require.ErrorIs(t, vm.SettleHostPromise(h.pending[1], true, Number(2)), ErrUnknownHostPromise)
		st, err = vm.Run(context.Background(), RunOptions{})
		require.NoError(t, err)
		require.Equal(t, StatusDone, st)
		v, _ := vm.Result()
		require.Equal(t, 42.0, v.NumberValue())
	})
	t.Run("host rejection", func(t *testing.T) {
		t.Parallel()
		vm, h := newHostVM(t, "await later()")
		_, err := vm.Run(context.Background(), RunOptions{})
		require.NoError(t, err)
		require.NoError(t, vm.SettleHostPromise(h.pending[0], false, vm.NewError("Error", "denied")))
		_, err = vm.Run(context.Background(), RunOptions{})
		require.NoError(t, err)
		v, thrown := vm.Result()
		require.True(t, thrown)
		name, msg, _, _ := vm.DescribeError(v)
		require.Equal(t, "Error", name)
		require.Equal(t, "denied", msg)
	})
}

func TestDescribeErrorPosition(t *testing.T) {
	t.Parallel()
	p, err := Compile("const a = 1;\nconst o = null;\n  o.x")
	require.NoError(t, err)
	vm := New(Config{})
	require.NoError(t, vm.Start(p))
	_, err = vm.Run(context.Background(), RunOptions{})
	require.NoError(t, err)
	v, thrown := vm.Result()
	require.True(t, thrown)
	name, msg, line, _ := vm.DescribeError(v)
	require.Equal(t, "TypeError", name)
	require.Equal(t, "Cannot read properties of null (reading 'x')", msg)
	require.Equal(t, 3, line)
}

func TestScriptCompletionIsNotAdopted(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		script bool
		want   string
	}{
		// A classic script's last value is kept: its then is never read.
		{name: "script", script: true, want: "thenable:0"},
		// A program body is an async function: its completion value is adopted.
		{name: "async body", script: false, want: "adopted:1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			src := "var reads = 0; var o = { get then() { reads++; return (ok) => ok('adopted:' + reads) }, toString() { return 'thenable:' + reads } }; o"
			compile := Compile
			if tt.script {
				compile = CompileScript
			}
			p, err := compile(src)
			require.NoError(t, err)
			vm := New(Config{})
			require.NoError(t, vm.Start(p))
			st, err := vm.Run(context.Background(), RunOptions{})
			require.NoError(t, err)
			require.Equal(t, StatusDone, st)
			v, thrown := vm.Result()
			require.False(t, thrown)
			require.Equal(t, tt.want, vm.ToGoString(v))
		})
	}
}
