package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestSkipReason(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		path string
		md   metadata
		want string // substring of the reason; "" means the test runs
	}{
		{name: "plain test runs", path: "test/built-ins/Array/from/a.js", md: metadata{Features: []string{"Symbol.iterator"}}},
		{name: "onlyStrict runs", path: "test/language/a.js", md: metadata{Flags: []string{"onlyStrict"}}},
		{name: "raw runs", path: "test/language/a.js", md: metadata{Flags: []string{"raw"}}},
		{name: "CanBlockIsFalse runs", path: "test/language/a.js", md: metadata{Flags: []string{"CanBlockIsFalse"}}},
		{name: "noStrict skipped", path: "test/language/a.js", md: metadata{Flags: []string{"noStrict"}}, want: "noStrict"},
		{name: "module skipped", path: "test/language/a.js", md: metadata{Flags: []string{"module"}}, want: "module"},
		{name: "CanBlockIsTrue skipped", path: "test/language/a.js", md: metadata{Flags: []string{"CanBlockIsTrue"}}, want: "CanBlockIsTrue"},
		{name: "Proxy feature runs", path: "test/built-ins/Object/a.js", md: metadata{Features: []string{"Symbol", "Proxy"}}},
		{name: "Reflect.construct runs", path: "test/built-ins/Object/a.js", md: metadata{Features: []string{"Reflect.construct"}}},
		{name: "typed array runs", path: "test/built-ins/Array/a.js", md: metadata{Features: []string{"TypedArray", "Int8Array", "resizable-arraybuffer"}}},
		{name: "DataView family runs", path: "test/built-ins/Array/a.js", md: metadata{Features: []string{"DataView.prototype.getInt8"}}},
		{name: "Float16Array", path: "test/built-ins/Array/a.js", md: metadata{Features: []string{"Float16Array"}}, want: "typed arrays"},
		{name: "SharedArrayBuffer", path: "test/built-ins/Array/a.js", md: metadata{Features: []string{"SharedArrayBuffer"}}, want: "SharedArrayBuffer"},
		{name: "Atomics family", path: "test/built-ins/Array/a.js", md: metadata{Features: []string{"Atomics.waitAsync"}}, want: "Atomics"},
		{name: "BigInt is in the language", path: "test/language/a.js", md: metadata{Features: []string{"BigInt"}}},
		{name: "Temporal", path: "test/built-ins/Date/a.js", md: metadata{Features: []string{"Temporal"}}, want: "Temporal"},
		{name: "Intl family", path: "test/built-ins/Date/a.js", md: metadata{Features: []string{"Intl.DateTimeFormat-dayPeriod"}}, want: "Intl"},
		{name: "dynamic import", path: "test/language/expressions/a.js", md: metadata{Features: []string{"dynamic-import"}}, want: "modules"},
		{name: "cross-realm", path: "test/built-ins/Array/a.js", md: metadata{Features: []string{"cross-realm"}}, want: "createRealm"},
		{name: "WeakRef", path: "test/built-ins/Array/a.js", md: metadata{Features: []string{"WeakRef"}}, want: "WeakRef"},
		{name: "eval-code dir", path: "test/language/eval-code/direct/a.js", want: "directory excluded: eval"},
		{name: "with dir", path: "test/language/statements/with/a.js", want: "with"},
		{name: "similar dir name not excluded", path: "test/language/statements/without/a.js"},
		{name: "annexB dir", path: "test/annexB/built-ins/a.js", want: "Annex B"},
		{name: "resolution phase", path: "test/language/a.js", md: metadata{Negative: &negative{Phase: "resolution", Type: "SyntaxError"}}, want: "resolution"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := skipReason(tt.path, &tt.md)
			if tt.want == "" {
				require.Empty(t, got)
				return
			}
			require.Contains(t, got, tt.want)
		})
	}
}

func TestIsTestFile(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		path string
		want bool
	}{
		{name: "test", path: "test/language/a.js", want: true},
		{name: "fixture", path: "test/language/module-code/x_FIXTURE.js", want: false},
		{name: "not js", path: "test/language/README.md", want: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			require.Equal(t, tt.want, isTestFile(tt.path))
		})
	}
}

func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for name, content := range files {
		full := filepath.Join(root, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(full), 0o755))
		require.NoError(t, os.WriteFile(full, []byte(content), 0o644))
	}
	return root
}

func TestSelectTests(t *testing.T) {
	t.Parallel()
	root := writeTree(t, map[string]string{
		"test/language/expressions/a.js":         "",
		"test/language/statements/with/b.js":     "",
		"test/language/module-code/c_FIXTURE.js": "",
		"test/built-ins/Array/from/d.js":         "",
		"test/built-ins/Proxy/e.js":              "",
		"test/built-ins/ArrayBuffer/f.js":        "",
		"test/built-ins/parseInt/g.js":           "",
		"test/intl402/h.js":                      "",
		"harness/assert.js":                      "",
	})
	tests := []struct {
		name   string
		filter string
		want   []string
	}{
		{
			name: "default selection",
			want: []string{
				"test/built-ins/Array/from/d.js",
				"test/built-ins/ArrayBuffer/f.js",
				"test/built-ins/Proxy/e.js",
				"test/built-ins/parseInt/g.js",
				"test/language/expressions/a.js",
				"test/language/statements/with/b.js",
			},
		},
		{name: "filter", filter: "Array/", want: []string{"test/built-ins/Array/from/d.js"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := selectTests(root, tt.filter)
			require.NoError(t, err)
			require.Equal(t, tt.want, got)
		})
	}
}

func TestReadList(t *testing.T) {
	t.Parallel()
	file := filepath.Join(t.TempDir(), "list.txt")
	content := strings.Join([]string{
		"# comment",
		"test/language/a.js",
		"",
		"  test/built-ins/Array/b.js  ",
		"test/language/c.js",
	}, "\n")
	require.NoError(t, os.WriteFile(file, []byte(content), 0o644))

	got, err := readList(file, "")
	require.NoError(t, err)
	require.Equal(t, []string{"test/language/a.js", "test/built-ins/Array/b.js", "test/language/c.js"}, got)

	got, err = readList(file, "language")
	require.NoError(t, err)
	require.Equal(t, []string{"test/language/a.js", "test/language/c.js"}, got)

	_, err = readList(filepath.Join(t.TempDir(), "missing"), "")
	require.ErrorIs(t, err, os.ErrNotExist)
}

func TestOutsideLanguage(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		body string
		res  engineResult
		want string // substring of the reason; "" means the failure counts
	}{
		{name: "eval rejected at compile time", res: engineResult{CompileError: &jsError{Name: "UnsupportedSyntax", Message: "eval is not supported: programs cannot evaluate code at run time"}}, want: "uses eval"},
		{name: "Function constructor rejected at compile time", res: engineResult{CompileError: &jsError{Name: "UnsupportedSyntax", Message: "the Function constructor is not supported: x"}}, want: "the Function constructor"},
		{name: "v flag", res: engineResult{CompileError: &jsError{Name: "UnsupportedSyntax", Message: "the RegExp v flag is not supported: use u"}}, want: "v flag"},
		{name: "Function constructor reached at run time", res: engineResult{Thrown: &jsError{Name: "EvalError", Message: "the Function constructor is not supported: x"}}, want: "the Function constructor"},
		{name: "indirect eval at run time", res: engineResult{Thrown: &jsError{Name: "ReferenceError", Message: "eval is not defined"}}, want: "uses eval"},
		{name: "other unsupported syntax counts", res: engineResult{CompileError: &jsError{Name: "UnsupportedSyntax", Message: "statement *js.Foo is not supported"}}},
		{name: "parse error counts", res: engineResult{CompileError: &jsError{Name: "ParseError", Message: "eval is not supported"}}},
		{name: "other thrown error counts", res: engineResult{Thrown: &jsError{Name: "TypeError", Message: "eval is not defined"}}},
		{name: "WeakRef reached at run time", res: engineResult{Thrown: &jsError{Name: "ReferenceError", Message: "WeakRef is not defined"}}, want: "uses WeakRef"},
		{name: "Reflect is defined: its ReferenceError counts", res: engineResult{Thrown: &jsError{Name: "ReferenceError", Message: "Reflect is not defined"}}},
		{name: "evalScript", res: engineResult{Thrown: &jsError{Name: "TypeError", Message: "$262.evalScript is not a function"}}, want: "evalScript"},
		{name: "createRealm", res: engineResult{Thrown: &jsError{Name: "TypeError", Message: "$262.createRealm is not a function"}}, want: "createRealm"},
		{name: "other reference error counts", res: engineResult{Thrown: &jsError{Name: "ReferenceError", Message: "x is not defined"}}},
		{name: "engine error counts", res: engineResult{Err: os.ErrDeadlineExceeded}},
		{name: "test passing eval around", body: "x = (0, eval)('1');", res: engineResult{Thrown: &jsError{Name: "Test262Error", Message: "Expected a SyntaxError"}}, want: "refers to eval"},
		{name: "eval only in a comment counts", body: "/* eval */ // eval\nx = 1;", res: engineResult{Thrown: &jsError{Name: "Test262Error", Message: "boom"}}},
		{name: "test calling the Function constructor", body: "try { new Function('a', 'a b') } catch (e) { assert(e instanceof SyntaxError) }", res: engineResult{Thrown: &jsError{Name: "Test262Error", Message: "Expected true"}}, want: "calls the Function constructor"},
		{name: "Function.prototype is not a call", body: "Function.prototype.call(1); x.Function(2);", res: engineResult{Thrown: &jsError{Name: "Test262Error", Message: "boom"}}},
		{name: "an intrinsic the harness evaluates", res: engineResult{Thrown: &jsError{Name: "Test262Error", Message: "this implementation could not obtain %AsyncFunction%"}}, want: "the Function constructor"},
		{name: "evaluate is not eval", body: "evaluate(1); medieval;", res: engineResult{Thrown: &jsError{Name: "Test262Error", Message: "boom"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := outsideLanguage(tt.body, tt.res)
			if tt.want == "" {
				require.Empty(t, got)
				return
			}
			require.Contains(t, got, tt.want)
			require.True(t, strings.HasPrefix(got, "outside the language: "), got)
		})
	}
}

// A test is skipped for a feature that one of its harness includes declares.
func TestHarnessSkipReason(t *testing.T) {
	t.Parallel()
	root := writeTree(t, map[string]string{
		"harness/needsWeakRef.js": "/*---\ndescription: x\nfeatures: [WeakRef]\n---*/\nvar x = 1;\n",
		"harness/plain.js":        "/*---\ndescription: y\nfeatures: [TypedArray]\n---*/\nvar y = 1;\n",
	})
	h := newHarness(root)
	tests := []struct {
		name     string
		includes []string
		want     string
	}{
		{name: "no includes"},
		{name: "harness without excluded features", includes: []string{"plain.js"}},
		{name: "harness needing WeakRef", includes: []string{"plain.js", "needsWeakRef.js"}, want: "feature WeakRef of harness needsWeakRef.js"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := h.skipReason(&metadata{Includes: tt.includes})
			if tt.want == "" {
				require.Empty(t, got)
				return
			}
			require.Contains(t, got, tt.want)
		})
	}
}

// The harness that builds typed array subclasses from strings gets them as class expressions;
// a version of it without that code is an error rather than silently left as it is.
func TestHarnessRewrite(t *testing.T) {
	t.Parallel()
	const name = "resizableArrayBufferUtils.js"
	old := harnessRewrites[name][0]
	root := writeTree(t, map[string]string{
		"harness/" + name:  "function subClass(type) {\n  try {\n    " + old + "\n  } catch (e) {}\n}\n",
		"harness/other.js": "var z = new Function('return 1');\n",
	})
	h := newHarness(root)
	src, err := h.file(name)
	require.NoError(t, err)
	require.NotContains(t, src, "new Function")
	require.Contains(t, src, "class MyBigInt64Array extends BigInt64Array {}")
	other, err := h.file("other.js")
	require.NoError(t, err)
	require.Contains(t, other, "new Function", "files without a rewrite are read as they are")

	changed := writeTree(t, map[string]string{"harness/" + name: "function subClass(type) { return eval(type) }\n"})
	_, err = newHarness(changed).file(name)
	require.ErrorContains(t, err, "has changed")
}
