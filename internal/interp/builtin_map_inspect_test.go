package interp

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestCollectionsConsoleFormat checks console.log of Map, Set, WeakMap, WeakSet, their
// iterators, Date, URL, URLSearchParams, TextEncoder and TextDecoder against node 20's output.
func TestCollectionsConsoleFormat(t *testing.T) {
	t.Parallel()
	src := "console.log(new Map([['a', 1], [{x: 1}, [1, 2]]]));\nconsole.log(new Map());\nconsole.log(new Set([1, 'two', {three: 3}]));\nconsole.log(new Set());\nconsole.log(new WeakMap(), new WeakSet());\nconsole.log(new Date(0), new Date(NaN));\nconsole.log({when: new Date(86400000), m: new Map([[1, new Set([2])]])});\nconsole.log(new URLSearchParams('a=1&b=x y'));\nconsole.log(new URLSearchParams());\nconsole.log(new Map([[1, 2]]).keys(), new Set([5]).values(), new Map([[1, 2]]).entries());\nconsole.log(new TextEncoder(), new TextDecoder('utf-8', {fatal: true}));\nconsole.log(new Map([['k', new Map([['k2', new Map([['k3', new Map([['k4', 1]])]])]])]]));\nconsole.log(new URL('http://u:p@h:8/p?a=1#f'));\nconsole.log([new URL('http://h/')]);\nconst it = new Map([[1, 'a'], [2, 'b']]).values(); it.next(); console.log(it);\n"
	want := "Map(2) { 'a' => 1, { x: 1 } => [ 1, 2 ] }\nMap(0) {}\nSet(3) { 1, 'two', { three: 3 } }\nSet(0) {}\nWeakMap { <items unknown> } WeakSet { <items unknown> }\n1970-01-01T00:00:00.000Z Invalid Date\n{ when: 1970-01-02T00:00:00.000Z, m: Map(1) { 1 => Set(1) { 2 } } }\nURLSearchParams { 'a' => '1', 'b' => 'x y' }\nURLSearchParams {}\n[Map Iterator] { 1 } [Set Iterator] { 5 } [Map Entries] { [ 1, 2 ] }\n{ encoding: 'utf-8' } TextDecoder { encoding: 'utf-8', fatal: true, ignoreBOM: false }\nMap(1) { 'k' => Map(1) { 'k2' => Map(1) { 'k3' => [Map] } } }\nURL {\n  href: 'http://u:p@h:8/p?a=1#f',\n  origin: 'http://h:8',\n  protocol: 'http:',\n  username: 'u',\n  password: 'p',\n  host: 'h:8',\n  hostname: 'h',\n  port: '8',\n  pathname: '/p',\n  search: '?a=1',\n  searchParams: URLSearchParams { 'a' => '1' },\n  hash: '#f'\n}\n[\n  URL {\n    href: 'http://h/',\n    origin: 'http://h',\n    protocol: 'http:',\n    username: '',\n    password: '',\n    host: 'h',\n    hostname: 'h',\n    port: '',\n    pathname: '/',\n    search: '',\n    searchParams: URLSearchParams {},\n    hash: ''\n  }\n]\n[Map Iterator] { 'b' }\n"
	var lines []string
	vm := New(Config{Log: func(level, text string) { lines = append(lines, text) }})
	p, err := Compile(src)
	require.NoError(t, err)
	require.NoError(t, vm.Start(p))
	st, err := vm.Run(context.Background(), RunOptions{})
	require.NoError(t, err)
	require.Equal(t, StatusDone, st)
	require.Equal(t, want, strings.Join(lines, "\n")+"\n")
}
