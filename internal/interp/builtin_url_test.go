package interp

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestURLBuiltins checks URL and URLSearchParams against results computed by node 20.
func TestURLBuiltins(t *testing.T) {
	t.Parallel()
	runJSCases(t, urlCases)
}

// TestURLSnapshot checks that a URL, its live searchParams and a running params iterator
// survive snapshots.
func TestURLSnapshot(t *testing.T) {
	t.Parallel()
	src := `const u = new URL('https://h.example/p?a=1&b=2#f'); const sp = u.searchParams; const it = sp.keys(); it.next(); let n = 0; for (let i = 0; i < 4; i++) n += i; sp.append('c', String(n)); [u.href, it.next().value, sp === u.searchParams, new TextDecoder().decode(new Uint8Array([0xe2, 0x82, 0xac]))].join(' ')`
	got, thrown, snaps := runWithSnapshots(t, src, 5)
	require.False(t, thrown, got)
	require.Equal(t, "https://h.example/p?a=1&b=2&c=6#f b true €", got)
	require.Positive(t, snaps)
}

// urlCases are the node-checked programs of this file (also run under snapshots).
var urlCases = []jsCase{
	{"full", `const u = new URL("https://user:pa ss@Example.COM:8080/a/b/../c/./d?x=1 2&y=é#frag ment"); [u.href, u.origin, u.protocol, u.username, u.password, u.host, u.hostname, u.port, u.pathname, u.search, u.hash].join(' | ')`, "https://user:pa%20ss@example.com:8080/a/c/d?x=1%202&y=%C3%A9#frag%20ment | https://example.com:8080 | https: | user | pa%20ss | example.com:8080 | example.com | 8080 | /a/c/d | ?x=1%202&y=%C3%A9 | #frag%20ment"},
	{"default_port", `const u = new URL("http://example.com:80/"); [u.href, u.origin, u.protocol, u.username, u.password, u.host, u.hostname, u.port, u.pathname, u.search, u.hash].join(' | ')`, "http://example.com/ | http://example.com | http: |  |  | example.com | example.com |  | / |  | "},
	{"ws_port", `const u = new URL("wss://h:443/x"); [u.href, u.origin, u.protocol, u.username, u.password, u.host, u.hostname, u.port, u.pathname, u.search, u.hash].join(' | ')`, "wss://h/x | wss://h | wss: |  |  | h | h |  | /x |  | "},
	{"no_path", `const u = new URL("https://example.com"); [u.href, u.origin, u.protocol, u.username, u.password, u.host, u.hostname, u.port, u.pathname, u.search, u.hash].join(' | ')`, "https://example.com/ | https://example.com | https: |  |  | example.com | example.com |  | / |  | "},
	{"backslashes", `const u = new URL("https:\\\\example.com\\a\\b"); [u.href, u.origin, u.protocol, u.username, u.password, u.host, u.hostname, u.port, u.pathname, u.search, u.hash].join(' | ')`, "https://example.com/a/b | https://example.com | https: |  |  | example.com | example.com |  | /a/b |  | "},
	{"ipv4", `const u = new URL("http://192.168.0.1/"); [u.href, u.origin, u.protocol, u.username, u.password, u.host, u.hostname, u.port, u.pathname, u.search, u.hash].join(' | ')`, "http://192.168.0.1/ | http://192.168.0.1 | http: |  |  | 192.168.0.1 | 192.168.0.1 |  | / |  | "},
	{"ipv4_hex_octal", `const u = new URL("http://0x7f.1/"); [u.href, u.origin, u.protocol, u.username, u.password, u.host, u.hostname, u.port, u.pathname, u.search, u.hash].join(' | ')`, "http://127.0.0.1/ | http://127.0.0.1 | http: |  |  | 127.0.0.1 | 127.0.0.1 |  | / |  | "},
	{"ipv4_number", `const u = new URL("http://4294967295/"); [u.href, u.origin, u.protocol, u.username, u.password, u.host, u.hostname, u.port, u.pathname, u.search, u.hash].join(' | ')`, "http://255.255.255.255/ | http://255.255.255.255 | http: |  |  | 255.255.255.255 | 255.255.255.255 |  | / |  | "},
	{"ipv6", `const u = new URL("http://[2001:db8:0:0:0:0:2:1]:8080/"); [u.href, u.origin, u.protocol, u.username, u.password, u.host, u.hostname, u.port, u.pathname, u.search, u.hash].join(' | ')`, "http://[2001:db8::2:1]:8080/ | http://[2001:db8::2:1]:8080 | http: |  |  | [2001:db8::2:1]:8080 | [2001:db8::2:1] | 8080 | / |  | "},
	{"ipv6_v4", `const u = new URL("http://[::ffff:192.168.1.1]/"); [u.href, u.origin, u.protocol, u.username, u.password, u.host, u.hostname, u.port, u.pathname, u.search, u.hash].join(' | ')`, "http://[::ffff:c0a8:101]/ | http://[::ffff:c0a8:101] | http: |  |  | [::ffff:c0a8:101] | [::ffff:c0a8:101] |  | / |  | "},
	{"ipv6_loopback", `const u = new URL("http://[0:0:0:0:0:0:0:1]/"); [u.href, u.origin, u.protocol, u.username, u.password, u.host, u.hostname, u.port, u.pathname, u.search, u.hash].join(' | ')`, "http://[::1]/ | http://[::1] | http: |  |  | [::1] | [::1] |  | / |  | "},
	{"file", `const u = new URL("file:///C:/Users/x/file.txt"); [u.href, u.origin, u.protocol, u.username, u.password, u.host, u.hostname, u.port, u.pathname, u.search, u.hash].join(' | ')`, "file:///C:/Users/x/file.txt | null | file: |  |  |  |  |  | /C:/Users/x/file.txt |  | "},
	{"file_host", `const u = new URL("file://localhost/etc/passwd"); [u.href, u.origin, u.protocol, u.username, u.password, u.host, u.hostname, u.port, u.pathname, u.search, u.hash].join(' | ')`, "file:///etc/passwd | null | file: |  |  |  |  |  | /etc/passwd |  | "},
	{"mailto", `const u = new URL("mailto:someone@example.com?subject=hi"); [u.href, u.origin, u.protocol, u.username, u.password, u.host, u.hostname, u.port, u.pathname, u.search, u.hash].join(' | ')`, "mailto:someone@example.com?subject=hi | null | mailto: |  |  |  |  |  | someone@example.com | ?subject=hi | "},
	{"data", `const u = new URL("data:text/plain,Hello World"); [u.href, u.origin, u.protocol, u.username, u.password, u.host, u.hostname, u.port, u.pathname, u.search, u.hash].join(' | ')`, "data:text/plain,Hello World | null | data: |  |  |  |  |  | text/plain,Hello World |  | "},
	{"custom_scheme", `const u = new URL("foo://bar.com/baz?q"); [u.href, u.origin, u.protocol, u.username, u.password, u.host, u.hostname, u.port, u.pathname, u.search, u.hash].join(' | ')`, "foo://bar.com/baz?q | null | foo: |  |  | bar.com | bar.com |  | /baz | ?q | "},
	{"custom_no_slashes", `const u = new URL("urn:isbn:0451450523"); [u.href, u.origin, u.protocol, u.username, u.password, u.host, u.hostname, u.port, u.pathname, u.search, u.hash].join(' | ')`, "urn:isbn:0451450523 | null | urn: |  |  |  |  |  | isbn:0451450523 |  | "},
	{"javascript", `const u = new URL("javascript:alert(1)"); [u.href, u.origin, u.protocol, u.username, u.password, u.host, u.hostname, u.port, u.pathname, u.search, u.hash].join(' | ')`, "javascript:alert(1) | null | javascript: |  |  |  |  |  | alert(1) |  | "},
	{"percent_path", `const u = new URL("http://h/a b/<c>/%41{}"); [u.href, u.origin, u.protocol, u.username, u.password, u.host, u.hostname, u.port, u.pathname, u.search, u.hash].join(' | ')`, "http://h/a%20b/%3Cc%3E/%41%7B%7D | http://h | http: |  |  | h | h |  | /a%20b/%3Cc%3E/%41%7B%7D |  | "},
	{"query_quote", `const u = new URL("http://h/?a='b'"); [u.href, u.origin, u.protocol, u.username, u.password, u.host, u.hostname, u.port, u.pathname, u.search, u.hash].join(' | ')`, "http://h/?a=%27b%27 | http://h | http: |  |  | h | h |  | / | ?a=%27b%27 | "},
	{"query_quote_nonspecial", `const u = new URL("x://h/?a='b'"); [u.href, u.origin, u.protocol, u.username, u.password, u.host, u.hostname, u.port, u.pathname, u.search, u.hash].join(' | ')`, "x://h/?a='b' | null | x: |  |  | h | h |  | / | ?a='b' | "},
	{"userinfo_encoding", `const u = new URL("http://a@b:c@d@host/"); [u.href, u.origin, u.protocol, u.username, u.password, u.host, u.hostname, u.port, u.pathname, u.search, u.hash].join(' | ')`, "http://a%40b:c%40d@host/ | http://host | http: | a%40b | c%40d | host | host |  | / |  | "},
	{"trailing_dot", `const u = new URL("http://example.com./x"); [u.href, u.origin, u.protocol, u.username, u.password, u.host, u.hostname, u.port, u.pathname, u.search, u.hash].join(' | ')`, "http://example.com./x | http://example.com. | http: |  |  | example.com. | example.com. |  | /x |  | "},
	{"whitespace_stripped", `const u = new URL("  \thttp://ex\nample.com/ "); [u.href, u.origin, u.protocol, u.username, u.password, u.host, u.hostname, u.port, u.pathname, u.search, u.hash].join(' | ')`, "http://example.com/ | http://example.com | http: |  |  | example.com | example.com |  | / |  | "},
	{"dotdot_root", `const u = new URL("http://h/../../a"); [u.href, u.origin, u.protocol, u.username, u.password, u.host, u.hostname, u.port, u.pathname, u.search, u.hash].join(' | ')`, "http://h/a | http://h | http: |  |  | h | h |  | /a |  | "},
	{"encoded_dots", `const u = new URL("http://h/a/%2e%2E/b"); [u.href, u.origin, u.protocol, u.username, u.password, u.host, u.hostname, u.port, u.pathname, u.search, u.hash].join(' | ')`, "http://h/b | http://h | http: |  |  | h | h |  | /b |  | "},
	{"empty_query_hash", `const u = new URL("http://h/?#"); [u.href, u.origin, u.protocol, u.username, u.password, u.host, u.hostname, u.port, u.pathname, u.search, u.hash].join(' | ')`, "http://h/?# | http://h | http: |  |  | h | h |  | / |  | "},
	{"relative_path", `const u = new URL("c/d?q", "http://h/a/b"); u.href`, "http://h/a/c/d?q"},
	{"relative_dotdot", `const u = new URL("../x", "http://h/a/b/c"); u.href`, "http://h/a/x"},
	{"relative_root", `const u = new URL("/x", "http://h/a/b?q#f"); u.href`, "http://h/x"},
	{"relative_query", `const u = new URL("?z", "http://h/a/b?q#f"); u.href`, "http://h/a/b?z"},
	{"relative_hash", `const u = new URL("#g", "http://h/a/b?q#f"); u.href`, "http://h/a/b?q#g"},
	{"relative_scheme", `const u = new URL("//other/p", "https://h/a"); u.href`, "https://other/p"},
	{"relative_empty", `const u = new URL("", "http://h/a?q#f"); u.href`, "http://h/a?q"},
	{"absolute_ignores_base", `const u = new URL("https://x.org/", "http://h/a"); u.href`, "https://x.org/"},
	{"relative_opaque_base_hash", `const u = new URL("#x", "mailto:a@b"); u.href`, "mailto:a@b#x"},
	{"invalid_no_base", `new URL('/relative')`, "throws TypeError"},
	{"invalid_host", `new URL('http://exa mple.com')`, "throws TypeError"},
	{"invalid_port", `new URL('http://h:99999/')`, "throws TypeError"},
	{"invalid_ipv4", `new URL('http://1.2.3.256/')`, "throws TypeError"},
	{"invalid_ipv6", `new URL('http://[::1::2]/')`, "throws TypeError"},
	{"invalid_empty_host", `new URL('http:///')`, "throws TypeError"},
	{"invalid_base", `new URL('a', 'nope')`, "throws TypeError"},
	{"relative_opaque_base", `new URL('x', 'mailto:a@b')`, "throws TypeError"},
	{"canParse", `[URL.canParse('http://x'), URL.canParse('x'), URL.canParse('x', 'http://h/')].join()`, "true,false,true"},
	{"set_protocol", `const u = new URL('http://h:443/p'); u.protocol = 'https'; u.href`, "https://h/p"},
	{"set_protocol_special_to_non", `const u = new URL('http://h/p'); u.protocol = 'foo'; u.href`, "http://h/p"},
	{"set_host", `const u = new URL('http://h:1/p?q'); u.host = 'example.org:8080'; u.href`, "http://example.org:8080/p?q"},
	{"set_hostname", `const u = new URL('http://h:1/p'); u.hostname = 'Other.COM'; u.href`, "http://other.com:1/p"},
	{"set_hostname_invalid", `const u = new URL('http://h/p'); u.hostname = 'a b'; u.href`, "http://h/p"},
	{"set_port", `const u = new URL('http://h/p'); u.port = '8080'; const a = u.href; u.port = '80'; const b = u.href; u.port = ''; [a, b, u.href].join(' ')`, "http://h:8080/p http://h/p http://h/p"},
	{"set_port_junk", `const u = new URL('http://h:5/p'); u.port = '12ab'; u.href`, "http://h:12/p"},
	{"set_pathname", `const u = new URL('http://h/p?q#f'); u.pathname = '/a b/../c'; u.href`, "http://h/c?q#f"},
	{"set_pathname_no_slash", `const u = new URL('http://h/p'); u.pathname = 'x'; u.href`, "http://h/x"},
	{"set_search", `const u = new URL('http://h/p#f'); u.search = 'a=1 2'; const a = u.href; u.search = ''; [a, u.href].join(' ')`, "http://h/p?a=1%202#f http://h/p#f"},
	{"set_hash", `const u = new URL('http://h/p'); u.hash = 'x y'; const a = u.href; u.hash = ''; [a, u.href].join(' ')`, "http://h/p#x%20y http://h/p"},
	{"set_username_password", `const u = new URL('http://h/p'); u.username = 'me@x'; u.password = 'p:w'; u.href`, "http://me%40x:p%3Aw@h/p"},
	{"set_username_file", `const u = new URL('file:///p'); u.username = 'me'; u.href`, "file:///p"},
	{"set_href", `const u = new URL('http://h/p?a=1'); u.href = 'https://o/?b=2'; [u.href, u.searchParams.get('b'), u.searchParams.get('a')].join()`, "https://o/?b=2,2,"},
	{"set_href_invalid", `const u = new URL('http://h/'); u.href = 'nope'`, "throws TypeError"},
	{"searchParams_live", `const u = new URL('http://h/p?a=1&b=2'); u.searchParams.append('c', '3 4'); u.searchParams.delete('a'); u.href`, "http://h/p?b=2&c=3+4"},
	{"searchParams_same_object", `const u = new URL('http://h/?x'); u.searchParams === u.searchParams`, "true"},
	{"searchParams_after_search_set", `const u = new URL('http://h/?x=1'); const sp = u.searchParams; u.search = '?y=2'; [sp.get('x'), sp.get('y')].join()`, ",2"},
	{"searchParams_clear_removes_query", `const u = new URL('http://h/?x=1#f'); u.searchParams.delete('x'); u.href`, "http://h/#f"},
	{"toString_toJSON", `const u = new URL('http://h/a'); [String(u), JSON.stringify({u})].join(' ')`, "http://h/a {\"u\":\"http://h/a\"}"},
	{"tag", `Object.prototype.toString.call(new URL('http://h'))`, "[object URL]"},
	{"without_new", `URL('http://h')`, "throws TypeError"},
	{"incompatible", `Object.getOwnPropertyDescriptor(URL.prototype, 'href').get.call({})`, "throws TypeError"},
	{"lengths", `[URL.length, URL.canParse.length, URLSearchParams.length].join()`, "1,1,0"},
	{"params_string", `const p = new URLSearchParams('?a=1&b=x+y&c=%20%zz&d&=e&&a=2'); JSON.stringify([...p])`, "[[\"a\",\"1\"],[\"b\",\"x y\"],[\"c\",\" %zz\"],[\"d\",\"\"],[\"\",\"e\"],[\"a\",\"2\"]]"},
	{"params_record", `new URLSearchParams({a: 1, b: 'x y', c: true}).toString()`, "a=1&b=x+y&c=true"},
	{"params_pairs", `new URLSearchParams([['a', '1'], ['b', '2']]).toString()`, "a=1&b=2"},
	{"params_map", `new URLSearchParams(new Map([['k', 'v']])).toString()`, "k=v"},
	{"params_bad_pair", `new URLSearchParams([['a']])`, "throws TypeError"},
	{"params_get_getAll", `const p = new URLSearchParams('a=1&a=2&b=3'); [p.get('a'), p.get('z'), p.getAll('a').join('+'), p.has('b'), p.has('a', '2'), p.has('a', '9'), p.size].join()`, "1,,1+2,true,true,false,3"},
	{"params_set", `const p = new URLSearchParams('a=1&b=2&a=3'); p.set('a', 'x'); p.set('c', 'y'); p.toString()`, "a=x&b=2&c=y"},
	{"params_delete_value", `const p = new URLSearchParams('a=1&a=2&a=1'); p.delete('a', '1'); p.toString()`, "a=2"},
	{"params_sort", `const p = new URLSearchParams('z=1&a=2&b=3&a=1'); p.sort(); p.toString()`, "a=2&a=1&b=3&z=1"},
	{"params_encoding", `new URLSearchParams({q: "a&b=c d/é*-._~!'()"}).toString()`, "q=a%26b%3Dc+d%2F%C3%A9*-._%7E%21%27%28%29"},
	{"params_forEach", `const out = []; new URLSearchParams('a=1&b=2').forEach(function (v, k, p) { out.push(k + v + this.s) }, {s: '!'}); out.join()`, "a1!,b2!"},
	{"params_iterators", `const p = new URLSearchParams('a=1&b=2'); [[...p.keys()].join(), [...p.values()].join(), [...p.entries()].join(';')].join('|')`, "a,b|1,2|a,1;b,2"},
	{"params_iterator_tag", `Object.prototype.toString.call(new URLSearchParams().keys())`, "[object URLSearchParams Iterator]"},
	{"params_symbol_iterator", `URLSearchParams.prototype[Symbol.iterator] === URLSearchParams.prototype.entries`, "true"},
	{"params_tag", `String(new URLSearchParams('a=b'))`, "a=b"},
	{"params_null", `new URLSearchParams(null).toString()`, ""},
	{"params_without_new", `URLSearchParams()`, "throws TypeError"},
	{"params_iterator_live", `const p = new URLSearchParams('a=1'); const it = p.keys(); p.append('b', 2); [...it].join()`, "a,b"},
}
