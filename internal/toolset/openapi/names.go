package openapi

import (
	"strconv"
	"strings"
	"unicode"
)

// identWords splits s into the runs of identifier characters (letters, digits, _ and $).
func identWords(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool {
		return !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '$')
	})
}

// capitalise upper-cases the first letter of w.
func capitalise(w string) string {
	for i, r := range w {
		return string(unicode.ToUpper(r)) + w[i+len(string(r)):]
	}
	return w
}

// segment makes an identifier of a name segment: its words in camelCase, "_" before a
// leading digit; "" when it has no identifier character.
func segment(s string) string {
	words := identWords(s)
	if len(words) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString(words[0])
	for _, w := range words[1:] {
		b.WriteString(capitalise(w))
	}
	out := b.String()
	if unicode.IsDigit([]rune(out)[0]) {
		out = "_" + out
	}
	if out == "__proto__" {
		out = "_proto"
	}
	return out
}

// operationName is the tool path of an operationId: segments at "." and "/", each an
// identifier; "" when nothing is left.
func operationName(id string) string {
	var segs []string
	for _, part := range strings.FieldsFunc(id, func(r rune) bool { return r == '.' || r == '/' }) {
		if s := segment(part); s != "" {
			segs = append(segs, s)
		}
	}
	return strings.Join(segs, ".")
}

// derivedName names an operation without an operationId by its method and path:
// GET /pets/{petId}/photos → getPetsByPetIdPhotos.
func derivedName(method, path string) string {
	var b strings.Builder
	b.WriteString(strings.ToLower(method))
	for _, part := range strings.Split(path, "/") {
		if param, ok := strings.CutPrefix(part, "{"); ok {
			b.WriteString("By" + capitalise(segment(strings.TrimSuffix(param, "}"))))
			continue
		}
		b.WriteString(capitalise(segment(part)))
	}
	return b.String()
}

// assignNames makes the tool paths of the base names, in order: a name taken, or the
// namespace of another, gets "_2", "_3"… until free.
func assignNames(bases []string) []string {
	namespaces := map[string]bool{}
	for _, n := range bases {
		for i := range len(n) {
			if n[i] == '.' {
				namespaces[n[:i]] = true
			}
		}
	}
	taken := map[string]bool{}
	out := make([]string, len(bases))
	for i, n := range bases {
		name := n
		for k := 2; taken[name] || namespaces[name]; k++ {
			name = n + "_" + strconv.Itoa(k)
		}
		taken[name] = true
		out[i] = name
	}
	return out
}
