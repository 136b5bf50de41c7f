package whatwgurl

import "testing"

// TestParse checks whole-URL parsing against node's `new URL(input, base)`: the serialization,
// the origin, and failure (an empty want).
func TestParse(t *testing.T) {
	tests := []struct{ input, base, href, origin string }{
		{"https://EXAMPLE.com:443/a/../b?q=1#f", "", "https://example.com/b?q=1#f", "https://example.com"},
		{"b/c?x", "http://h/a/", "http://h/a/b/c?x", "http://h"},
		{"http://[::1]:8080/", "", "http://[::1]:8080/", "http://[::1]:8080"},
		{"http://0x7f.1/", "", "http://127.0.0.1/", "http://127.0.0.1"},
		{"mailto:Joe@Example.com", "", "mailto:Joe@Example.com", "null"},
		{"https://münchen.de/ä?ü#ö", "", "https://xn--mnchen-3ya.de/%C3%A4?%C3%BC#%C3%B6", "https://xn--mnchen-3ya.de"},
		{"file:///C:/x/../y", "", "file:///C:/y", "null"},
		{"blob:https://a.b/uuid", "", "blob:https://a.b/uuid", "https://a.b"},
		{"http://user:pa ss@h/", "", "http://user:pa%20ss@h/", "http://h"},
		{"//x/y", "https://base/", "https://x/y", "https://x"},
		{"http://a b/", "", "", ""},
		{"http://1.2.3.256/", "", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.input, func(t *testing.T) {
			var base *URL
			if tt.base != "" {
				base = new(URL)
				if !Parse(tt.base, nil, base, NoState) {
					t.Fatalf("base %q does not parse", tt.base)
				}
			}
			var u URL
			ok := Parse(tt.input, base, &u, NoState)
			if tt.href == "" {
				if ok {
					t.Fatalf("parsed as %q, want a failure", u.Href())
				}
				return
			}
			if !ok {
				t.Fatal("failed to parse")
			}
			if got := u.Href(); got != tt.href {
				t.Errorf("href = %q, want %q", got, tt.href)
			}
			if got := u.Origin(); got != tt.origin {
				t.Errorf("origin = %q, want %q", got, tt.origin)
			}
		})
	}
}

// TestParseWithStateOverride checks the setters' form: an override changes one component of an
// existing URL in place.
func TestParseWithStateOverride(t *testing.T) {
	var u URL
	if !Parse("https://a.example/x?q#f", nil, &u, NoState) {
		t.Fatal("failed to parse")
	}
	Parse("b.example", nil, &u, HostnameState)
	Parse("8443", nil, &u, PortState)
	u.Path = nil // the pathname setter empties the path first, as the standard says
	Parse("/y z", nil, &u, PathStartState)
	u.Query = ""
	Parse("k=v", nil, &u, QueryState)
	if got, want := u.Href(), "https://b.example:8443/y%20z?k=v#f"; got != want {
		t.Errorf("href = %q, want %q", got, want)
	}
}
