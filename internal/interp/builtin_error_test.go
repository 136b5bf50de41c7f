package interp

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestErrorConstructors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		ctor    string
		args    func(vm *VM) []Value
		asNew   bool
		str     string
		stack   string
		cause   string
		errors  string
		wantErr string
	}{
		{name: "plain", ctor: "Error", args: func(vm *VM) []Value { return []Value{asciiValue("boom")} }, str: "Error: boom", stack: "Error: boom"},
		{name: "called without new", ctor: "TypeError", args: func(vm *VM) []Value { return []Value{asciiValue("t")} }, str: "TypeError: t", stack: "TypeError: t"},
		{name: "no message", ctor: "RangeError", asNew: true, args: func(vm *VM) []Value { return nil }, str: "RangeError", stack: "RangeError"},
		{name: "cause", ctor: "Error", asNew: true, args: func(vm *VM) []Value {
			return []Value{asciiValue("m"), objectValue(objectFrom(vm, "cause", "why"))}
		}, str: "Error: m", stack: "Error: m", cause: "why"},
		{name: "aggregate", ctor: "AggregateError", asNew: true, args: func(vm *VM) []Value {
			return []Value{numbers(vm, 1, 2), asciiValue("all failed")}
		}, str: "AggregateError: all failed", stack: "AggregateError: all failed", errors: "1,2"},
		{name: "aggregate not iterable", ctor: "AggregateError", asNew: true, args: func(vm *VM) []Value {
			return []Value{Number(1)}
		}, wantErr: "TypeError"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			vm := newTestVM(t)
			ctor := objectValue(vm.realm.Intrinsic(tt.ctor))
			var e Value
			err := func() (err error) {
				defer vm.catchException(&err)
				if tt.asNew {
					e = vm.construct(ctor, nil, tt.args(vm)...)
				} else {
					e = vm.Call(ctor, undefinedValue, tt.args(vm)...)
				}
				return nil
			}()
			if tt.wantErr != "" {
				require.Equal(t, tt.wantErr, thrownName(vm, err))
				return
			}
			require.NoError(t, err)
			require.Equal(t, ClassError, e.obj().class)
			require.Same(t, vm.realm.Intrinsic(tt.ctor+".prototype"), e.obj().proto)
			require.Equal(t, tt.str, mustCall(t, vm, "Error.prototype.toString", e).String())
			stack, _ := vm.Get(e, "stack")
			require.Equal(t, tt.stack, stack.String())
			if tt.cause != "" {
				c, _ := vm.Get(e, "cause")
				require.Equal(t, tt.cause, c.String())
				d, ok := vm.getOwnProperty(e.obj(), keyCause)
				require.True(t, ok)
				require.False(t, d.Enumerable)
			} else {
				require.False(t, e.obj().hasOwn(keyCause))
			}
			if tt.errors != "" {
				errs, _ := vm.Get(e, "errors")
				require.Equal(t, tt.errors, listString(vm, errs))
			}
		})
	}
}

func TestErrorStackIsFormattedLazily(t *testing.T) {
	t.Parallel()
	vm := newTestVM(t)
	vm.positionHook = func() (int, int) { return 12, 5 }
	e := vm.NewError("Error", "late")
	// a subclass constructor assigns the name after super() returned
	vm.createDataProperty(e.obj(), keyName, asciiValue("ValidationError"))
	stack, err := vm.Get(e, "stack")
	require.NoError(t, err)
	require.Equal(t, "ValidationError: late\n    at <anonymous>:12:5", stack.String())
	name, msg, line, col := "", "", 0, 0
	ed := e.obj().slots.(*errorData)
	line, col = ed.line, ed.column
	name, msg = lookupDataProperty(e.obj(), keyName).String(), lookupDataProperty(e.obj(), keyMessage).String()
	require.Equal(t, []any{"ValidationError", "late", 12, 5}, []any{name, msg, line, col})
}

func TestErrorCaptureStackTrace(t *testing.T) {
	t.Parallel()
	vm := newTestVM(t)
	o := objectFrom(vm, "message", "custom")
	mustCall(t, vm, "Error.captureStackTrace", undefinedValue, objectValue(o))
	stack, _ := vm.Get(objectValue(o), "stack")
	require.Equal(t, "Error: custom", stack.String())
	_, err := callIntrinsic(vm, "Error.captureStackTrace", undefinedValue, Number(1))
	require.Equal(t, "TypeError", thrownName(vm, err))
}

// TestErrorStackAccessor checks Error.prototype.stack (error stack accessor proposal): the
// text matches node's first line; the property is an accessor on Error.prototype and
// instances have no own stack until one is assigned.
func TestErrorStackAccessor(t *testing.T) {
	t.Parallel()
	runJSCases(t, []jsCase{
		{"first line", `new RangeError('m').stack.split('\n')[0]`, "RangeError: m"},
		{"subclass name", `class V extends Error { constructor(m) { super(m); this.name = 'V' } } new V('bad').stack.split('\n')[0]`, "V: bad"},
		{"name changed before read", `const e = new Error('m'); e.name = 'X'; e.stack.split('\n')[0]`, "X: m"},
		{"no own stack", `const e = new TypeError('t'); [Object.hasOwn(e, 'stack'), Object.getOwnPropertyNames(e).join(), typeof e.stack].join('|')`, "false|message|string"},
		{"accessor on Error.prototype", `const d = Object.getOwnPropertyDescriptor(Error.prototype, 'stack'); [d.get.name, d.get.length, d.set.name, d.set.length, d.enumerable, d.configurable].join()`, "get stack,0,set stack,1,false,true"},
		{"Error.prototype itself", `String(Error.prototype.stack)`, "undefined"},
		{"no error data", `const get = Object.getOwnPropertyDescriptor(Error.prototype, 'stack').get; [get.call({}), get.call([]), get.call(Object.create(Error.prototype))].map(String).join()`, "undefined,undefined,undefined"},
		{"getter on primitive", `Object.getOwnPropertyDescriptor(Error.prototype, 'stack').get.call('x')`, "throws TypeError"},
		{"assignment makes an own property", `const e = new Error('m'); e.stack = 'custom'; const d = Object.getOwnPropertyDescriptor(e, 'stack'); [e.stack, d.writable, d.enumerable, d.configurable].join()`, "custom,true,true,true"},
		{"assignment of a non-string", `new Error('m').stack = 5`, "throws TypeError"},
		{"assignment on Error.prototype", `Error.prototype.stack = 's'`, "throws TypeError"},
		{"setter on a plain object", `const o = {}; Object.getOwnPropertyDescriptor(Error.prototype, 'stack').set.call(o, 's'); o.stack`, "s"},
		{"captureStackTrace still defines an own stack", `const o = {message: 'c'}; Error.captureStackTrace(o); [Object.hasOwn(o, 'stack'), o.stack.split('\n')[0]].join()`, "true,Error: c"},
		{"delete keeps the accessor", `const e = new Error('m'); delete e.stack; e.stack.split('\n')[0]`, "Error: m"},
	})
}
