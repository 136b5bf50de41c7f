package openapi

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
)

// direction says which side of an operation a schema describes: a request leaves out
// readOnly properties, a response writeOnly ones.
type direction int

const (
	request direction = iota
	response
)

// omitted is the keyword whose properties a direction leaves out.
func (d direction) omitted() string {
	if d == request {
		return "readOnly"
	}
	return "writeOnly"
}

// componentPrefix starts the references to component schemas, which become $defs.
const componentPrefix = "#/components/schemas/"

// maxInlineDepth bounds the nesting of inline schemas converted; deeper ones accept anything.
const maxInlineDepth = 64

// maxDefsBytes bounds the JSON size of the component schemas one tool schema carries as
// $defs. Some APIs' schemas all reach one another (an expandable field can hold any object),
// and each tool schema would carry the whole document; the nearest components (breadth first
// from the tool's schema) are kept until the budget is spent, and the others accept any
// value.
const maxDefsBytes = 16 << 10

// converter turns OpenAPI schemas (as generic JSON, with their $refs) into self-contained JSON
// Schemas: one converter per tool schema, collecting the $defs that schema reaches.
type converter struct {
	components map[string]any
	dir        direction
	defs       map[string]any
	queue      []string // components referred to and not yet converted, in order met
}

func newConverter(components map[string]any, dir direction) *converter {
	return &converter{components: components, dir: dir, defs: map[string]any{}}
}

// root converts a schema and attaches the $defs it reached.
func (c *converter) root(schema any) map[string]any {
	out, _ := c.convert(schema, 0).(map[string]any)
	if out == nil {
		out = map[string]any{}
	}
	return c.withDefs(out)
}

// withDefs converts the components the schema reached, breadth first up to maxDefsBytes (the
// others accept any value), and attaches them to a converted root schema as $defs.
func (c *converter) withDefs(out map[string]any) map[string]any {
	size := 0
	for len(c.queue) > 0 {
		name := c.queue[0]
		c.queue = c.queue[1:]
		if size >= maxDefsBytes {
			c.defs[name] = map[string]any{"description": name + " (not expanded)"}
			continue
		}
		def, _ := c.convert(c.components[name], 0).(map[string]any)
		if def == nil {
			def = map[string]any{}
		}
		encoded, _ := json.Marshal(def)
		size += len(encoded)
		c.defs[name] = def
	}
	if len(c.defs) > 0 {
		out["$defs"] = c.defs
	}
	return out
}

// componentName returns X of "#/components/schemas/X" (unescaped), or false.
func componentName(ref string) (string, bool) {
	name, ok := strings.CutPrefix(ref, componentPrefix)
	if !ok || name == "" || strings.Contains(name, "/") {
		return "", false
	}
	return strings.ReplaceAll(strings.ReplaceAll(name, "~1", "/"), "~0", "~"), true
}

func escapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// define queues component name for the $defs, once.
func (c *converter) define(name string) {
	if _, known := c.defs[name]; known {
		return
	}
	c.defs[name] = nil // known; converted by withDefs
	c.queue = append(c.queue, name)
}

// flagged reports whether a schema (through one $ref) carries keyword: true.
func (c *converter) flagged(schema any, keyword string) bool {
	m, ok := schema.(map[string]any)
	if !ok {
		return false
	}
	if m[keyword] == true {
		return true
	}
	if ref, ok := m["$ref"].(string); ok {
		if name, ok := componentName(ref); ok {
			target, _ := c.components[name].(map[string]any)
			return target != nil && target[keyword] == true
		}
	}
	return false
}

// convert returns the JSON Schema form of an OpenAPI schema.
func (c *converter) convert(schema any, depth int) any {
	m, ok := schema.(map[string]any)
	if !ok {
		if b, isBool := schema.(bool); isBool {
			return b
		}
		return map[string]any{}
	}
	if depth > maxInlineDepth {
		return map[string]any{}
	}
	if ref, ok := m["$ref"].(string); ok {
		name, ok := componentName(ref)
		if !ok || c.components[name] == nil {
			return map[string]any{} // another document, or a pointer we do not follow: anything
		}
		c.define(name)
		out := map[string]any{"$ref": "#/$defs/" + escapePointer(name)}
		if d, ok := m["description"].(string); ok {
			out["description"] = d
		}
		return out
	}
	out := make(map[string]any, len(m))
	var removed []string
	// Keys in order, so that components are met, and kept within maxDefsBytes, in the same
	// order every time: a document always makes the same tools.
	for _, k := range slices.Sorted(maps.Keys(m)) {
		v := m[k]
		switch k {
		case "properties":
			props, _ := v.(map[string]any)
			converted := make(map[string]any, len(props))
			for _, name := range slices.Sorted(maps.Keys(props)) {
				p := props[name]
				if c.flagged(p, c.dir.omitted()) {
					removed = append(removed, name)
					continue
				}
				converted[name] = c.convert(p, depth+1)
			}
			out[k] = converted
		case "items", "not", "additionalProperties", "contains", "propertyNames", "if", "then", "else",
			"unevaluatedItems", "unevaluatedProperties", "additionalItems":
			if _, isMap := v.(map[string]any); isMap {
				out[k] = c.convert(v, depth+1)
			} else {
				out[k] = v
			}
		case "allOf", "anyOf", "oneOf", "prefixItems":
			list, _ := v.([]any)
			converted := make([]any, len(list))
			for i, s := range list {
				converted[i] = c.convert(s, depth+1)
			}
			out[k] = converted
		case "patternProperties", "dependentSchemas":
			schemas, _ := v.(map[string]any)
			converted := make(map[string]any, len(schemas))
			for _, name := range slices.Sorted(maps.Keys(schemas)) {
				converted[name] = c.convert(schemas[name], depth+1)
			}
			out[k] = converted
		case "discriminator", "xml", "externalDocs", "example", "examples", "$schema", "$id", "$defs", "definitions":
			// Documentation, or the OpenAPI document's own structure: not part of a tool's schema.
		default:
			if !strings.HasPrefix(k, "x-") {
				out[k] = v
			}
		}
	}
	if req, ok := out["required"].([]any); ok && len(removed) > 0 {
		kept := make([]any, 0, len(req))
		for _, r := range req {
			if s, _ := r.(string); !slices.Contains(removed, s) {
				kept = append(kept, r)
			}
		}
		if len(kept) == 0 {
			delete(out, "required")
		} else {
			out["required"] = kept
		}
	}
	exclusiveBound(out, "exclusiveMinimum", "minimum")
	exclusiveBound(out, "exclusiveMaximum", "maximum")
	return nullable(out)
}

// exclusiveBound rewrites OpenAPI 3.0's boolean exclusiveMinimum/Maximum (a modifier of
// minimum/maximum) as JSON Schema 2020-12's number.
func exclusiveBound(s map[string]any, exclusive, bound string) {
	flag, ok := s[exclusive].(bool)
	if !ok {
		return
	}
	delete(s, exclusive)
	if limit, ok := s[bound]; ok && flag {
		s[exclusive] = limit
		delete(s, bound)
	}
}

// nullable rewrites OpenAPI 3.0's nullable: true as JSON Schema: "null" joins the type (and
// the enum), or, without a type, the schema becomes anyOf itself or null.
func nullable(s map[string]any) map[string]any {
	if s["nullable"] != true {
		delete(s, "nullable")
		return s
	}
	delete(s, "nullable")
	if e, ok := s["enum"].([]any); ok && !slices.Contains(e, nil) {
		s["enum"] = append(e, nil)
	}
	switch t := s["type"].(type) {
	case string:
		s["type"] = []any{t, "null"}
		return s
	case []any:
		if !slices.Contains(t, any("null")) {
			s["type"] = append(t, "null")
		}
		return s
	}
	out := map[string]any{"anyOf": []any{s, map[string]any{"type": "null"}}}
	if d, ok := s["description"]; ok {
		out["description"] = d
	}
	return out
}
