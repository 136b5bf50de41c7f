package run

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// CheckCycles reports a reference cycle of the schema that validation can reach: a subschema
// that applies to a value and, through keywords that apply to that same value ($ref,
// $dynamicRef, $recursiveRef, allOf, anyOf, oneOf, not, if, then, else, dependentSchemas,
// dependencies), reaches itself again without descending into a part of the value (a property,
// an item, a property name). JSON Schema leaves the meaning of such a schema undefined
// (2020-12 core, "Guarding Against Infinite Recursion"), and the validator fails every value
// that leads it into the cycle ("causing reference cycle"). Recursion through a keyword that
// descends (a tree whose "children" items $ref the node) is not a cycle here, and validates.
// Cycles in $defs that the schema never reaches are ignored. The error wraps ErrInvalidSchema
// and shows the cycle as schema locations joined by the keyword leading from one to the next:
// "#/$defs/a -$ref-> #/$defs/b -$ref-> #/$defs/a". A nil *Schema has no cycle.
func (s *Schema) CheckCycles() error {
	if s == nil {
		return nil
	}
	f := cycleFinder{state: make(map[*jsonschema.Schema]int)}
	// Every subschema validation can reach, in-place or below.
	reach := []*jsonschema.Schema{s.compiled}
	seen := map[*jsonschema.Schema]bool{s.compiled: true}
	for i := 0; i < len(reach); i++ {
		for _, e := range edges(reach[i]) {
			if !seen[e.to] {
				seen[e.to] = true
				reach = append(reach, e.to)
			}
		}
	}
	for _, sch := range reach {
		if cycle := f.visit(edge{to: sch}); cycle != "" {
			return fmt.Errorf("%w: reference cycle %s: the subschema applies to the same value again "+
				"with no keyword between that descends into a part of the value (properties, items, ...); "+
				"JSON Schema leaves such a cycle undefined and validation fails every value that reaches it; "+
				"a recursive schema must recurse through such a keyword", ErrInvalidSchema, cycle)
		}
	}
	return nil
}

// edge is a keyword of a compiled schema leading to a subschema; inPlace when the subschema
// applies to the same value (validateSelf in the validator), not to a part of it.
type edge struct {
	keyword string
	to      *jsonschema.Schema
	inPlace bool
}

// cycleFinder finds cycles of in-place edges by depth-first search: state 0 is unvisited,
// 1 on the current path, 2 done (no cycle through it).
type cycleFinder struct {
	state map[*jsonschema.Schema]int
	path  []edge
}

// visit follows e, then the in-place edges of the subschema it leads to, and returns the first
// cycle found, rendered, or "".
func (f *cycleFinder) visit(e edge) string {
	switch f.state[e.to] {
	case 2:
		return ""
	case 1:
		// e.to is on the path: the cycle runs from its entry back to it through e.
		start := slices.IndexFunc(f.path, func(p edge) bool { return p.to == e.to })
		var b strings.Builder
		b.WriteString(schemaLocation(e.to))
		for _, p := range f.path[start+1:] {
			b.WriteString(" -" + p.keyword + "-> " + schemaLocation(p.to))
		}
		b.WriteString(" -" + e.keyword + "-> " + schemaLocation(e.to))
		return b.String()
	}
	f.state[e.to] = 1
	f.path = append(f.path, e)
	for _, next := range edges(e.to) {
		if next.inPlace {
			if c := f.visit(next); c != "" {
				return c
			}
		}
	}
	f.path = f.path[:len(f.path)-1]
	f.state[e.to] = 2
	return ""
}

// schemaLocation is a subschema's location, relative ("#/$defs/a") within the document.
func schemaLocation(sch *jsonschema.Schema) string {
	return strings.TrimPrefix(sch.Location, schemaURL)
}

// edges lists a compiled schema's subschemas, in a fixed order. The compiler leaves out the
// siblings of $ref in drafts before 2019-09, which ignore them.
func edges(s *jsonschema.Schema) []edge {
	var out []edge
	add := func(keyword string, to *jsonschema.Schema, inPlace bool) {
		if to != nil {
			out = append(out, edge{keyword: keyword, to: to, inPlace: inPlace})
		}
	}
	list := func(keyword string, tos []*jsonschema.Schema, inPlace bool) {
		for i, to := range tos {
			add(keyword+"/"+strconv.Itoa(i), to, inPlace)
		}
	}
	named := func(keyword string, tos map[string]*jsonschema.Schema, inPlace bool) {
		for _, k := range slices.Sorted(maps.Keys(tos)) {
			add(keyword+"/"+k, tos[k], inPlace)
		}
	}
	schemaOf := func(v any) *jsonschema.Schema {
		sch, _ := v.(*jsonschema.Schema)
		return sch
	}

	// In place: the same value.
	add("$ref", s.Ref, true)
	add("$recursiveRef", s.RecursiveRef, true)
	if s.DynamicRef != nil {
		// The static target; the one chosen at validation may be another with the same
		// $dynamicAnchor.
		add("$dynamicRef", s.DynamicRef.Ref, true)
	}
	list("allOf", s.AllOf, true)
	list("anyOf", s.AnyOf, true)
	list("oneOf", s.OneOf, true)
	add("not", s.Not, true)
	add("if", s.If, true)
	add("then", s.Then, true)
	add("else", s.Else, true)
	named("dependentSchemas", s.DependentSchemas, true)
	deps := make(map[string]*jsonschema.Schema)
	for k, v := range s.Dependencies {
		if sch := schemaOf(v); sch != nil {
			deps[k] = sch
		}
	}
	named("dependencies", deps, true)

	// Below: a part of the value.
	named("properties", s.Properties, false)
	patterns := make(map[string]*jsonschema.Schema, len(s.PatternProperties))
	for re, sch := range s.PatternProperties {
		patterns[re.String()] = sch
	}
	named("patternProperties", patterns, false)
	add("additionalProperties", schemaOf(s.AdditionalProperties), false)
	add("propertyNames", s.PropertyNames, false)
	add("unevaluatedProperties", s.UnevaluatedProperties, false)
	switch items := s.Items.(type) {
	case *jsonschema.Schema:
		add("items", items, false)
	case []*jsonschema.Schema:
		list("items", items, false)
	}
	add("additionalItems", schemaOf(s.AdditionalItems), false)
	list("prefixItems", s.PrefixItems, false)
	add("items", s.Items2020, false)
	add("contains", s.Contains, false)
	add("unevaluatedItems", s.UnevaluatedItems, false)
	add("contentSchema", s.ContentSchema, false)
	return out
}
