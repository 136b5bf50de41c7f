package interp

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// hostGlobalsFns is a tree of host functions like a run's tools: nested namespaces, names that
// are not identifiers, and a global function beside the tree.
var hostGlobalsFns = []HostFunc{
	{Path: []string{"tools"}},
	{Path: []string{"tools", "approvals", "request"}, ID: "tool:approvals.request", Length: 1},
	{Path: []string{"tools", "echo"}, ID: "tool:echo", Length: 1},
	{Path: []string{"tools", "math", "add"}, ID: "tool:math.add", Length: 2},
	{Path: []string{"tools", "math", "divide"}, ID: "tool:math.divide", Length: 1},
	{Path: []string{"tools", "résumé", "get-item"}, ID: "tool:résumé.get-item", Length: 0},
	{Path: []string{"tools", "string", "split"}, ID: "tool:string.split", Length: 1},
	{Path: []string{"search"}, ID: "search", Length: 1},
	{Path: []string{"empty"}},
	{Path: []string{"tools", "math"}},
}

// setHostFuncs defines fns the way an embedder does without HostGlobals: NewObject,
// NewHostFunction and Set, each namespace an own property.
func setHostFuncs(t *testing.T, vm *VM, fns []HostFunc) {
	t.Helper()
	made := map[string]Value{}
	for _, f := range fns {
		obj := vm.Global()
		path := f.Path
		if f.ID == "" {
			path = append(path[:len(path):len(path)], "") // an object: made as a namespace of nothing
		}
		for i, name := range path[:len(path)-1] {
			key := strings.Join(f.Path[:i+1], ".")
			next, ok := made[key]
			if !ok {
				next = vm.NewObject()
				made[key] = next
				require.NoError(t, vm.Set(obj, name, next))
			}
			obj = next
		}
		if f.ID != "" {
			last := f.Path[len(f.Path)-1]
			require.NoError(t, vm.Set(obj, last, vm.NewHostFunction(f.ID, last, f.Length)))
		}
	}
}

// describeHostGlobals lists everything a program can see of the tree: every own property with
// its attributes, each object's prototype, class, extensibility, and the calls' host ids.
const describeHostGlobals = `
const out = [];
function walk(path, o) {
  out.push(path + ': ' + typeof o + ' ' + Object.prototype.toString.call(o) + ' ext=' + Object.isExtensible(o) +
    ' proto=' + (Object.getPrototypeOf(o) === Function.prototype ? 'F' : Object.getPrototypeOf(o) === Object.prototype ? 'O' : '?'));
  for (const k of Reflect.ownKeys(o)) {
    const d = Object.getOwnPropertyDescriptor(o, k);
    out.push(path + '.' + String(k) + ' ' + JSON.stringify([d.writable, d.enumerable, d.configurable, typeof d.value === 'object' || typeof d.value === 'function' ? typeof d.value : d.value]));
    if (typeof d.value === 'object' || (typeof d.value === 'function' && k !== 'constructor')) walk(path + '.' + String(k), d.value);
  }
  if (typeof o === 'function') {
    try { new o(); } catch (e) { out.push(path + ' new: ' + e.constructor.name); }
  }
}
walk('tools', tools);
walk('search', search);
walk('empty', empty);
out.push(Object.keys(globalThis).join());
out.push(Object.getOwnPropertyNames(globalThis).slice(-2).join());
out.push(JSON.stringify(tools));
out.push(String(tools.math.add(1, 2)) + String(search('x')));
out.join('\n')`

// idHost answers every host call with its id.
type idHost struct{}

func (idHost) CallHost(vm *VM, id string, this Value, args []Value) (Value, error) {
	return asciiValue(id), nil
}

// runStarted runs a started VM to its end and returns its result as a string.
func runStarted(t *testing.T, vm *VM) string {
	t.Helper()
	st, err := vm.Run(context.Background(), RunOptions{})
	require.NoError(t, err)
	require.Equal(t, StatusDone, st)
	v, thrown := vm.Result()
	require.False(t, thrown)
	return vm.ToGoString(v)
}

// A HostGlobals installs the same objects, with the same properties, accounting and
// snapshot, as NewObject, NewHostFunction and Set.
func TestHostGlobalsAsSet(t *testing.T) {
	t.Parallel()
	g, err := NewHostGlobals(hostGlobalsFns)
	require.NoError(t, err)

	want := New(Config{Host: idHost{}})
	setHostFuncs(t, want, hostGlobalsFns)
	got := New(Config{Host: idHost{}})
	require.NoError(t, got.InstallHostGlobals(g))
	require.Equal(t, want.allocated, got.allocated, "memory accounting")

	p, err := Compile(describeHostGlobals)
	require.NoError(t, err)
	require.NoError(t, want.Start(p))
	require.NoError(t, got.Start(p))
	wantSnap, err := want.Snapshot()
	require.NoError(t, err)
	gotSnap, err := got.Snapshot()
	require.NoError(t, err)
	require.Equal(t, wantSnap, gotSnap)

	out := runStarted(t, got)
	require.Equal(t, runStarted(t, want), out)
	require.Contains(t, out, "tools.résumé.get-item.name [false,false,true,\"get-item\"]")
	require.Contains(t, out, "tools.math.add new: TypeError")
}

// Each VM gets objects of its own: what a program changes in one is not seen by another, nor
// by the next install.
func TestHostGlobalsIsolation(t *testing.T) {
	t.Parallel()
	g, err := NewHostGlobals(hostGlobalsFns)
	require.NoError(t, err)
	const change = `
tools.math.mul = 1; delete tools.math.add; tools.echo.extra = 2; tools.string.split.name2 = 3;
Object.defineProperty(tools.string.split, 'name', {value: 'changed'});
delete tools.approvals.request.length; tools.fresh = {}; delete tools.echo;
for (let i = 0; i < 20; i++) tools.math['k' + i] = i;
Object.freeze(tools.string);
JSON.stringify(Object.keys(tools)) + Object.keys(tools.math).length`
	const look = `JSON.stringify([Object.keys(tools), Object.keys(tools.math), Object.keys(tools.echo),
  Object.getOwnPropertyNames(tools.string.split), tools.string.split.name, tools.approvals.request.length,
  Object.isFrozen(tools.string)])`
	pristine := `[["approvals","echo","math","résumé","string"],["add","divide"],[],["length","name"],"split",1,false]`
	a := New(Config{Host: idHost{}})
	require.NoError(t, a.InstallHostGlobals(g))
	b := New(Config{Host: idHost{}})
	require.NoError(t, b.InstallHostGlobals(g))
	require.Equal(t, `["approvals","math","résumé","string","fresh"]22`, evalIn(t, a, change))
	require.Equal(t, pristine, evalIn(t, b, look))
	c := New(Config{Host: idHost{}})
	require.NoError(t, c.InstallHostGlobals(g))
	require.Equal(t, pristine, evalIn(t, c, look))
}

func TestNewHostGlobalsRejects(t *testing.T) {
	t.Parallel()
	for name, fns := range map[string][]HostFunc{
		"empty path":            {{ID: "x"}},
		"twice":                 {{Path: []string{"a", "b"}, ID: "1"}, {Path: []string{"a", "b"}, ID: "2"}},
		"below a function":      {{Path: []string{"a", "b"}, ID: "1"}, {Path: []string{"a", "b", "c"}, ID: "2"}},
		"over a function":       {{Path: []string{"a", "b", "c"}, ID: "1"}, {Path: []string{"a", "b"}, ID: "2"}},
		"object at a function":  {{Path: []string{"a", "b"}, ID: "1"}, {Path: []string{"a", "b"}}},
		"function at an object": {{Path: []string{"a", "b"}}, {Path: []string{"a", "b"}, ID: "1"}},
	} {
		_, err := NewHostGlobals(fns)
		require.Error(t, err, name)
	}
}
