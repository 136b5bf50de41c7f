package run

import (
	"bytes"
	"encoding/json"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// Descriptor is what a model is told about one tool.
type Descriptor struct {
	// Path is the registered dotted path ("math.add").
	Path string `json:"path"`
	// Description is the tool's description.
	Description string `json:"description,omitempty"`
	// Signature is the TypeScript signature with JSDoc, in access form:
	// "tools.math.add(input: {...}): Promise<{...}>" (see Signature, pretty).
	Signature string `json:"signature"`
	// Input is the input JSON Schema (nil = anything).
	Input json.RawMessage `json:"input,omitempty"`
	// Output is the output JSON Schema (nil = anything).
	Output json.RawMessage `json:"output,omitempty"`
	// Durable is true for durable tools.
	Durable bool `json:"durable"`

	// derived caches what Search and RenderPrompt compute from the fields
	// above; Describe fills it, and a Descriptor built otherwise (decoded
	// from JSON, say) is derived on use.
	derived *derived
}

// derived holds per-descriptor values computed once.
type derived struct {
	compact    string   // compact one-line signature
	pathWords  []string // words of Path
	paramWords []string // input property names and their words
	descWords  []string // words of Description
	lowerPath  string   // Path, lowercased
	lowerAcc   string   // AccessPath(Path) without "tools.", lowercased
}

func derive(d *Descriptor) *derived {
	if d.derived != nil {
		return d.derived
	}
	return &derived{
		compact:    Signature(d.Path, d.Input, d.Output, false),
		pathWords:  words(d.Path),
		paramWords: parameterWords(d),
		descWords:  words(d.Description),
		lowerPath:  strings.ToLower(d.Path),
		lowerAcc:   strings.ToLower(strings.TrimPrefix(AccessPath(d.Path), "tools.")),
	}
}

// Describe returns the descriptor of one tool.
func Describe(t Tool) Descriptor {
	d := Descriptor{
		Path:        t.Path,
		Description: t.Description,
		Signature:   Signature(t.Path, t.Input, t.Output, true),
		Input:       t.Input,
		Output:      t.Output,
		Durable:     t.Durable != nil,
	}
	d.derived = derive(&d)
	return d
}

// Catalog returns the descriptors of every tool, sorted by path. They are
// computed on the first call and shared after; the slice is a fresh copy.
func (b *Toolbox) Catalog() []Descriptor {
	b.catalogOnce.Do(func() {
		b.catalog = make([]Descriptor, len(b.paths))
		for i, p := range b.paths {
			b.catalog[i] = Describe(b.tools[p].tool)
		}
	})
	return append([]Descriptor(nil), b.catalog...)
}

// Signature renders "tools.<path>(input: In): Promise<Out>" from the tool's
// schemas. Compact mode puts everything on one line ("{ a: number; b?:
// string }"); pretty mode puts each property on its own line under a JSDoc
// comment built from its description and constraints. A nil input schema is
// "input?: unknown"; a nil output schema is "unknown".
func Signature(path string, input, output json.RawMessage, pretty bool) string {
	param := "input: " + TypeScript(input, pretty)
	if len(bytes.TrimSpace(input)) == 0 || string(bytes.TrimSpace(input)) == "null" {
		param = "input?: unknown"
	}
	return AccessPath(path) + "(" + param + "): Promise<" + TypeScript(output, pretty) + ">"
}

// maxRenderDepth bounds how deep a schema is rendered; deeper parts are
// "unknown".
const maxRenderDepth = 8

// maxRenderNodes bounds how many schema nodes one rendering visits, so a
// schema whose $refs fan out cannot blow up exponentially; nodes past the
// budget render as "unknown".
const maxRenderNodes = 2000

// TypeScript renders a JSON Schema as a TypeScript type. It is total: what
// it cannot express (or a malformed schema) renders as "unknown". $ref to
// any pointer of the same document is resolved and inlined; a reference met
// again while it is being expanded renders as its name ("Node").
func TypeScript(schema json.RawMessage, pretty bool) string {
	trimmed := bytes.TrimSpace(schema)
	if len(trimmed) == 0 || string(trimmed) == "null" {
		return "unknown"
	}
	doc, err := decodeOrdered(trimmed)
	if err != nil {
		return "unknown"
	}
	r := &tsRenderer{root: doc, pretty: pretty, expanding: map[string]bool{"#": true}}
	return r.render(doc, 0, 0)
}

type tsRenderer struct {
	root      any
	pretty    bool
	expanding map[string]bool
	nodes     int // nodes visited, against maxRenderNodes
}

var nonIdentChars = regexp.MustCompile(`[^A-Za-z0-9_$]`)

// refName turns a $ref into a type name for recursive references.
func (r *tsRenderer) refName(ref string) string {
	name := ref
	if i := strings.LastIndexByte(ref, '/'); i >= 0 {
		name = ref[i+1:]
	}
	if ref == "#" || name == "" {
		name = "Root"
		if m, ok := r.root.(*omap); ok && IsIdentifier(m.str("title")) {
			name = m.str("title")
		}
	}
	name = nonIdentChars.ReplaceAllString(unescapePointer(name), "_")
	if name == "" || (name[0] >= '0' && name[0] <= '9') {
		name = "_" + name
	}
	return name
}

func unescapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~")
}

// resolve follows a same-document JSON pointer ref.
func (r *tsRenderer) resolve(ref string) (any, bool) {
	if ref == "#" {
		return r.root, true
	}
	if !strings.HasPrefix(ref, "#/") {
		return nil, false
	}
	cur := r.root
	for _, seg := range strings.Split(ref[2:], "/") {
		seg = unescapePointer(seg)
		switch c := cur.(type) {
		case *omap:
			v, ok := c.get(seg)
			if !ok {
				return nil, false
			}
			cur = v
		case []any:
			i, err := strconv.Atoi(seg)
			if err != nil || i < 0 || i >= len(c) {
				return nil, false
			}
			cur = c[i]
		default:
			return nil, false
		}
	}
	return cur, true
}

// render returns the TypeScript type of schema s; depth counts nesting for
// the depth cap, indent counts object nesting for pretty layout.
func (r *tsRenderer) render(s any, depth, indent int) string {
	r.nodes++
	if depth > maxRenderDepth || r.nodes > maxRenderNodes {
		return "unknown"
	}
	switch t := s.(type) {
	case bool:
		if t {
			return "unknown"
		}
		return "never"
	case *omap:
		out := r.renderObjectSchema(t, depth, indent)
		if nullable, _ := t.get("nullable"); nullable == true && out != "unknown" && !strings.HasSuffix(out, "| null") {
			out = union([]string{out, "null"})
		}
		return out
	}
	return "unknown"
}

func (r *tsRenderer) renderObjectSchema(s *omap, depth, indent int) string {
	if ref := s.str("$ref"); ref != "" {
		if r.expanding[ref] {
			return r.refName(ref)
		}
		target, ok := r.resolve(ref)
		if !ok {
			return "unknown"
		}
		r.expanding[ref] = true
		resolved := r.render(target, depth, indent)
		delete(r.expanding, ref)
		rest := r.without(s, "$ref", "description", "$defs", "definitions", "title", "$schema", "$id", "default", "examples")
		if len(rest.keys) == 0 {
			return resolved
		}
		return intersection([]string{resolved, r.render(rest, depth+1, indent)})
	}
	if c, ok := s.get("const"); ok {
		return literal(c)
	}
	if e, ok := s.get("enum"); ok {
		if arr, ok := e.([]any); ok && len(arr) > 0 {
			parts := make([]string, len(arr))
			for i, v := range arr {
				parts[i] = literal(v)
			}
			return union(parts)
		}
	}
	for _, kw := range []string{"anyOf", "oneOf"} {
		if alts, ok := s.get(kw); ok {
			arr, _ := alts.([]any)
			if len(arr) == 0 {
				return "unknown"
			}
			members := make([]string, len(arr))
			for i, a := range arr {
				members[i] = r.render(a, depth+1, indent)
				if members[i] == "unknown" {
					return "unknown"
				}
			}
			u := union(members)
			rest := r.without(s, kw, "description", "title", "default", "examples", "$defs", "definitions", "$schema", "$id", "nullable")
			if len(rest.keys) == 0 {
				return u
			}
			return intersection([]string{u, r.render(rest, depth+1, indent)})
		}
	}
	if all, ok := s.get("allOf"); ok {
		arr, _ := all.([]any)
		members := make([]string, 0, len(arr)+1)
		for _, a := range arr {
			members = append(members, r.render(a, depth+1, indent))
		}
		rest := r.without(s, "allOf", "description", "title", "default", "examples", "$defs", "definitions", "$schema", "$id", "nullable")
		if len(rest.keys) > 0 {
			members = append([]string{r.render(rest, depth+1, indent)}, members...)
		}
		return intersection(members)
	}
	typ, _ := s.get("type")
	if types, ok := typ.([]any); ok {
		parts := make([]string, 0, len(types))
		for _, one := range types {
			name, _ := one.(string)
			parts = append(parts, r.renderType(name, s, depth, indent))
		}
		return union(parts)
	}
	name, _ := typ.(string)
	if name == "" {
		switch {
		case has(s, "properties") || has(s, "additionalProperties") || has(s, "patternProperties") || has(s, "required"):
			name = "object"
		case has(s, "items") || has(s, "prefixItems"):
			name = "array"
		default:
			return "unknown"
		}
	}
	return r.renderType(name, s, depth, indent)
}

func has(s *omap, k string) bool {
	_, ok := s.get(k)
	return ok
}

// without returns a copy of s lacking the given keys.
func (r *tsRenderer) without(s *omap, drop ...string) *omap {
	out := &omap{vals: make(map[string]any)}
	for _, k := range s.keys {
		skip := false
		for _, d := range drop {
			if k == d {
				skip = true
				break
			}
		}
		if !skip {
			out.keys = append(out.keys, k)
			out.vals[k] = s.vals[k]
		}
	}
	return out
}

func (r *tsRenderer) renderType(name string, s *omap, depth, indent int) string {
	switch name {
	case "string":
		return "string"
	case "number", "integer":
		return "number"
	case "boolean":
		return "boolean"
	case "null":
		return "null"
	case "array":
		return r.renderArray(s, depth, indent)
	case "object":
		return r.renderObject(s, depth, indent)
	}
	return "unknown"
}

func (r *tsRenderer) renderArray(s *omap, depth, indent int) string {
	items, hasItems := s.get("items")
	prefix, hasPrefix := s.get("prefixItems")
	if tuple, ok := items.([]any); ok { // draft 7 tuple form
		prefix, hasPrefix = tuple, true
		items, hasItems = s.get("additionalItems")
	}
	if pa, ok := prefix.([]any); hasPrefix && ok {
		parts := make([]string, len(pa))
		for i, p := range pa {
			parts[i] = r.render(p, depth+1, indent)
		}
		if items != false {
			rest := "unknown"
			if hasItems {
				rest = r.render(items, depth+1, indent)
			}
			parts = append(parts, "...Array<"+rest+">")
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	elem := "unknown"
	if hasItems {
		elem = r.render(items, depth+1, indent)
	}
	return "Array<" + elem + ">"
}

func (r *tsRenderer) renderObject(s *omap, depth, indent int) string {
	required := make(map[string]bool)
	if req, ok := s.get("required"); ok {
		if arr, ok := req.([]any); ok {
			for _, v := range arr {
				if name, ok := v.(string); ok {
					required[name] = true
				}
			}
		}
	}
	props, _ := s.get("properties")
	pm, _ := props.(*omap)
	var index []string
	addl, hasAddl := s.get("additionalProperties")
	switch {
	case hasAddl && addl != false:
		index = append(index, r.render(addl, depth+1, indent+1))
	case !hasAddl && (pm == nil || len(pm.keys) == 0) && !has(s, "patternProperties"):
		index = append(index, "unknown")
	}
	if pp, ok := s.get("patternProperties"); ok {
		if ppm, ok := pp.(*omap); ok {
			for _, k := range ppm.keys {
				index = append(index, r.render(ppm.vals[k], depth+1, indent+1))
			}
		}
	}
	type field struct {
		doc  []string
		text string
	}
	var fields []field
	if pm != nil {
		for _, k := range pm.keys {
			key := k
			if !IsIdentifier(k) {
				q, _ := json.Marshal(k)
				key = string(q)
			}
			opt := "?"
			if required[k] {
				opt = ""
			}
			text := key + opt + ": " + r.render(pm.vals[k], depth+1, indent+1)
			fields = append(fields, field{doc: r.docLines(pm.vals[k]), text: text})
		}
	}
	if len(index) > 0 {
		fields = append(fields, field{text: "[key: string]: " + union(index)})
	}
	if len(fields) == 0 {
		return "{}"
	}
	if !r.pretty {
		parts := make([]string, len(fields))
		for i, f := range fields {
			parts[i] = f.text
		}
		return "{ " + strings.Join(parts, "; ") + " }"
	}
	pad := strings.Repeat("  ", indent+1)
	var b strings.Builder
	b.WriteString("{\n")
	for _, f := range fields {
		writeJSDoc(&b, pad, f.doc)
		b.WriteString(pad)
		b.WriteString(f.text)
		b.WriteByte('\n')
	}
	b.WriteString(strings.Repeat("  ", indent))
	b.WriteByte('}')
	return b.String()
}

// docTagKeywords are the constraints shown as JSDoc tags, in order.
var docTagKeywords = []string{
	"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
	"minLength", "maxLength", "pattern", "minItems", "maxItems",
	"minProperties", "maxProperties",
}

// docLines returns the JSDoc lines of a property schema: its description
// (or that of the schema it references), then constraint tags.
func (r *tsRenderer) docLines(s any) []string {
	m, ok := s.(*omap)
	if !ok {
		return nil
	}
	desc := m.str("description")
	if ref := m.str("$ref"); desc == "" && ref != "" {
		if target, ok := r.resolve(ref); ok {
			if tm, ok := target.(*omap); ok {
				desc = tm.str("description")
			}
		}
	}
	var lines []string
	for _, l := range strings.Split(strings.ReplaceAll(desc, "\r\n", "\n"), "\n") {
		lines = append(lines, strings.TrimRight(l, " \t"))
	}
	for len(lines) > 0 && strings.TrimSpace(lines[0]) == "" {
		lines = lines[1:]
	}
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	if d, _ := m.get("deprecated"); d == true {
		lines = append(lines, "@deprecated")
	}
	if d, ok := m.get("default"); ok {
		lines = append(lines, "@default "+literal(d))
	}
	if f := m.str("format"); f != "" {
		lines = append(lines, "@format "+f)
	}
	if m.str("type") == "integer" {
		lines = append(lines, "@integer")
	}
	for _, kw := range docTagKeywords {
		if v, ok := m.get(kw); ok {
			switch v.(type) {
			case string:
				lines = append(lines, "@"+kw+" "+v.(string))
			case json.Number:
				lines = append(lines, "@"+kw+" "+literal(v))
			}
		}
	}
	if u, _ := m.get("uniqueItems"); u == true {
		lines = append(lines, "@uniqueItems")
	}
	if ex, ok := m.get("examples"); ok {
		if arr, ok := ex.([]any); ok && len(arr) > 0 {
			lines = append(lines, "@example "+literal(arr[0]))
		}
	}
	return lines
}

// writeJSDoc writes lines as a JSDoc comment at pad; "*/" in the text is
// broken so it cannot end the comment.
func writeJSDoc(b *strings.Builder, pad string, lines []string) {
	if len(lines) == 0 {
		return
	}
	for i, l := range lines {
		lines[i] = strings.ReplaceAll(l, "*/", "* /")
	}
	if len(lines) == 1 {
		b.WriteString(pad + "/** " + lines[0] + " */\n")
		return
	}
	b.WriteString(pad + "/**\n")
	for _, l := range lines {
		if l == "" {
			b.WriteString(pad + " *\n")
		} else {
			b.WriteString(pad + " * " + l + "\n")
		}
	}
	b.WriteString(pad + " */\n")
}

// union joins members with " | ", dropping duplicates, keeping order.
func union(members []string) string {
	seen := make(map[string]bool)
	var out []string
	for _, m := range members {
		if m == "never" || seen[m] {
			continue
		}
		seen[m] = true
		out = append(out, m)
	}
	if len(out) == 0 {
		return "never"
	}
	for _, m := range out {
		if m == "unknown" {
			return "unknown"
		}
	}
	return strings.Join(out, " | ")
}

// intersection joins members with " & ", dropping "unknown" and
// parenthesising unions.
func intersection(members []string) string {
	var out []string
	for _, m := range members {
		if m != "unknown" {
			out = append(out, m)
		}
	}
	switch len(out) {
	case 0:
		return "unknown"
	case 1:
		return out[0]
	}
	for i, m := range out {
		if topLevelUnion(m) {
			out[i] = "(" + m + ")"
		}
	}
	return strings.Join(out, " & ")
}

// topLevelUnion reports whether t has a " | " outside brackets and strings.
func topLevelUnion(t string) bool {
	depth := 0
	inString := false
	for i := 0; i < len(t); i++ {
		c := t[i]
		switch {
		case inString:
			if c == '\\' {
				i++
			} else if c == '"' {
				inString = false
			}
		case c == '"':
			inString = true
		case c == '{' || c == '[' || c == '(' || c == '<':
			depth++
		case c == '}' || c == ']' || c == ')' || c == '>':
			depth--
		case c == '|' && depth == 0:
			return true
		}
	}
	return false
}

// sortDescriptors sorts by path in place.
func sortDescriptors(ds []Descriptor) {
	sort.SliceStable(ds, func(i, j int) bool { return ds[i].Path < ds[j].Path })
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = strings.TrimSpace(s[:i])
	}
	return s
}
