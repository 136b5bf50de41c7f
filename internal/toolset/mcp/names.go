package mcp

import (
	"strconv"
	"strings"
)

// Path is the tool path of an MCP tool name within its toolset: the name split at dots into
// namespaces, each segment with every character other than an ASCII letter, digit, "_" or "$"
// replaced by "_", a "_" put before a segment that starts with a digit, an empty segment made
// "_" and the segment "__proto__" made "__proto___". "resolve-library-id" is
// "resolve_library_id"; "github.list issues" is "github.list_issues".
func Path(name string) string {
	segs := strings.Split(name, ".")
	for i, s := range segs {
		segs[i] = segment(s)
	}
	return strings.Join(segs, ".")
}

func segment(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r == '_' || r == '$' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
			continue
		}
		b.WriteByte('_')
	}
	out := b.String()
	switch {
	case out == "":
		return "_"
	case out[0] >= '0' && out[0] <= '9':
		return "_" + out
	case out == "__proto__":
		return out + "_"
	}
	return out
}

// paths gives each name its path (Path), in order, making them unique: a path that collides
// with an earlier one (the same path, or one of the two a namespace of the other) gets "_2",
// "_3", ... appended to its first segment until it is free.
func paths(names []string) []string {
	taken := map[string]bool{}      // tool paths
	namespaces := map[string]bool{} // their proper prefixes
	free := func(p string) bool {
		if taken[p] || namespaces[p] {
			return false
		}
		for i := strings.IndexByte(p, '.'); i >= 0; i = next(p, i) {
			if taken[p[:i]] {
				return false
			}
		}
		return true
	}
	out := make([]string, len(names))
	for i, n := range names {
		base := Path(n)
		first, rest, dotted := strings.Cut(base, ".")
		if dotted {
			rest = "." + rest
		}
		p := base
		for k := 2; !free(p); k++ {
			p = first + "_" + strconv.Itoa(k) + rest
		}
		out[i] = p
		taken[p] = true
		for j := strings.IndexByte(p, '.'); j >= 0; j = next(p, j) {
			namespaces[p[:j]] = true
		}
	}
	return out
}

// next is the index of the next dot in p after index i, or -1.
func next(p string, i int) int {
	j := strings.IndexByte(p[i+1:], '.')
	if j < 0 {
		return -1
	}
	return i + 1 + j
}
