package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestTreeOnNode runs the fake test262 tree on node, the reference engine: the tree's
// expected outcomes hold on a conforming engine.
func TestTreeOnNode(t *testing.T) {
	t.Parallel()
	eng := newNodeEngine("node")
	t.Cleanup(eng.Close)
	paths, err := selectTests(treeRoot, "")
	require.NoError(t, err)
	r := newRunner(treeRoot, eng)
	r.jobs = 2
	for _, res := range r.runAll(context.Background(), paths) {
		t.Run(res.Path, func(t *testing.T) {
			t.Parallel()
			require.Equal(t, treeOutcomes[res.Path], res.Status, res.Message)
		})
	}
}

func TestNodeEngineResults(t *testing.T) {
	t.Parallel()
	eng := newNodeEngine("node")
	t.Cleanup(eng.Close)
	tests := []struct {
		name  string
		src   string
		check func(t *testing.T, res engineResult)
	}{
		{name: "prints", src: "print('a'); Promise.resolve().then(function () { print('b'); });", check: func(t *testing.T, res engineResult) {
			require.Equal(t, []string{"a", "b"}, res.Prints)
		}},
		{name: "syntax error", src: "var = 1;", check: func(t *testing.T, res engineResult) {
			require.NotNil(t, res.CompileError)
			require.Equal(t, parseErrorKind, res.CompileError.Name)
		}},
		{name: "thrown error", src: "throw new RangeError('r');", check: func(t *testing.T, res engineResult) {
			require.Equal(t, &jsError{Name: "RangeError", Message: "r"}, res.Thrown)
		}},
		{name: "thrown primitive", src: "throw 'text';", check: func(t *testing.T, res engineResult) {
			require.Equal(t, &jsError{Name: "", Message: "text"}, res.Thrown)
		}},
		{name: "strict", src: "\"use strict\"; undeclared = 1;", check: func(t *testing.T, res engineResult) {
			require.Equal(t, "ReferenceError", res.Thrown.Name)
		}},
		{name: "unhandled rejection", src: "Promise.reject(new Error('nobody handles this')); print('ok');", check: func(t *testing.T, res engineResult) {
			require.NoError(t, res.Err)
			require.Equal(t, []string{"ok"}, res.Prints)
		}},
		{name: "$262.global", src: "if ($262.global !== this) throw new Error('x');", check: func(t *testing.T, res engineResult) {
			require.Nil(t, res.Thrown)
			require.NoError(t, res.Err)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			tt.check(t, eng.Run(ctx, engineJob{Source: tt.src}))
		})
	}
}

func TestNodeEngineTimeout(t *testing.T) {
	t.Parallel()
	eng := newNodeEngine("node")
	t.Cleanup(eng.Close)
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	// An endless chain of microtasks: the vm timeout cannot stop it, the engine kills node.
	res := eng.Run(ctx, engineJob{Source: "function f() { Promise.resolve().then(f); } f();"})
	require.ErrorIs(t, res.Err, ErrTestTimeout)
	require.True(t, strings.Contains(res.Err.Error(), "deadline"), res.Err.Error())
}
