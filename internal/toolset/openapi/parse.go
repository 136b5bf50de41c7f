package openapi

import (
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/url"
	"slices"
	"sort"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/codemode/codemode/internal/toolset"
)

// ErrInvalidDocument is wrapped by errors about a document that cannot be made into tools.
var ErrInvalidDocument = errors.New("invalid OpenAPI document")

// Source is what the tools of an OpenAPI toolset call, stored with the toolset (without
// credentials): the server and each tool's operation.
type Source struct {
	// BaseURL is the server URL the operations' paths are appended to.
	BaseURL string `json:"baseUrl"`
	// Server is the baseUrl given at registration (Options.BaseURL), kept for a re-read of
	// the document; empty when the document's server is used.
	Server string `json:"server,omitempty"`
	// Operations are the tools' operations, by tool path within the toolset.
	Operations map[string]Operation `json:"operations"`
	// Skipped are the operations that are not tools, and why.
	Skipped []Skipped `json:"skipped,omitempty"`
}

// Operation is the HTTP request a tool makes.
type Operation struct {
	// Method is the HTTP method, upper case.
	Method string `json:"method"`
	// Path is the path template ("/pets/{petId}").
	Path string `json:"path"`
	// Params are the path, query and header parameters, named like the input's properties.
	Params []Param `json:"params,omitempty"`
	// Body is the request body's JSON media type; empty for none.
	Body string `json:"body,omitempty"`
	// Text is true when the response is text, which the tool returns as a string.
	Text bool `json:"text,omitempty"`
}

// Param is an operation's parameter and how it is serialised.
type Param struct {
	Name    string `json:"name"`
	In      string `json:"in"`
	Explode bool   `json:"explode,omitempty"`
	// Deep is a query parameter of style deepObject: name[key]=value, name[]=item.
	Deep bool `json:"deep,omitempty"`
}

// Skipped is an operation that is not a tool.
type Skipped struct {
	// Operation is "METHOD /path".
	Operation string `json:"operation"`
	// Reason says what the package does not support about it.
	Reason string `json:"reason"`
}

// Spec is a document made into tools.
type Spec struct {
	// Manifest describes the tools in the tool protocol's form.
	Manifest *toolset.Manifest
	// Source is what they call.
	Source Source
}

// Options are Parse's.
type Options struct {
	// DocumentURL is where the document was read from; a relative server URL is resolved
	// against it.
	DocumentURL string
	// BaseURL, when set, replaces the document's servers.
	BaseURL string
}

// methods is the order in which a path's operations are named.
var methods = []string{"GET", "PUT", "POST", "DELETE", "OPTIONS", "HEAD", "PATCH", "TRACE"}

// maxDescription bounds a tool's description.
const maxDescription = 2000

// Parse reads an OpenAPI 3.0 or 3.1 document (JSON or YAML) and makes its tools.
func Parse(data []byte, opts Options) (*Spec, error) {
	loader := openapi3.NewLoader()
	loader.IsExternalRefsAllowed = false
	doc, err := loader.LoadFromData(data)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidDocument, err)
	}
	if !strings.HasPrefix(doc.OpenAPI, "3.") {
		return nil, fmt.Errorf("%w: openapi version %q, want 3.0 or 3.1", ErrInvalidDocument, doc.OpenAPI)
	}
	base, err := baseURL(doc, opts)
	if err != nil {
		return nil, err
	}
	components := map[string]any{}
	if doc.Components != nil && len(doc.Components.Schemas) > 0 {
		if err := roundTrip(doc.Components.Schemas, &components); err != nil {
			return nil, fmt.Errorf("%w: components: %w", ErrInvalidDocument, err)
		}
	}
	var (
		ops   []built
		bases []string
	)
	src := Source{BaseURL: base, Server: opts.BaseURL, Operations: map[string]Operation{}}
	if doc.Paths != nil {
		paths := doc.Paths.Map()
		keys := make([]string, 0, len(paths))
		for p := range paths {
			keys = append(keys, p)
		}
		sort.Strings(keys)
		for _, p := range keys {
			item := paths[p]
			if item == nil {
				continue
			}
			byMethod := item.Operations()
			for _, method := range methods {
				op := byMethod[method]
				if op == nil {
					continue
				}
				b, reason := build(components, method, p, item, op)
				if reason != "" {
					src.Skipped = append(src.Skipped, Skipped{Operation: method + " " + p, Reason: reason})
					continue
				}
				name := operationName(op.OperationID)
				if name == "" {
					name = derivedName(method, p)
				}
				ops, bases = append(ops, b), append(bases, name)
			}
		}
	}
	m := &toolset.Manifest{Tools: make([]toolset.ManifestTool, 0, len(ops))}
	for i, name := range assignNames(bases) {
		b := ops[i]
		m.Tools = append(m.Tools, toolset.ManifestTool{Path: name, Description: b.description, Input: b.input, Output: b.output})
		src.Operations[name] = b.op
	}
	return &Spec{Manifest: m, Source: src}, nil
}

// roundTrip re-decodes v's JSON into out: the document's schemas as generic JSON, with their
// $refs as written.
func roundTrip(v, out any) error {
	raw, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return json.Unmarshal(raw, out)
}

// baseURL is the operations' server: opts.BaseURL or the document's first server (its
// variables at their defaults), resolved against the document's URL.
func baseURL(doc *openapi3.T, opts Options) (string, error) {
	raw := opts.BaseURL
	if raw == "" && len(doc.Servers) > 0 && doc.Servers[0] != nil {
		s := doc.Servers[0]
		raw = s.URL
		for name, v := range s.Variables {
			if v != nil {
				raw = strings.ReplaceAll(raw, "{"+name+"}", v.Default)
			}
		}
	}
	if raw == "" {
		raw = "/"
	}
	u, err := url.Parse(raw)
	if err != nil {
		return "", fmt.Errorf("%w: server URL %q: %w", ErrInvalidDocument, raw, err)
	}
	if !u.IsAbs() && opts.DocumentURL != "" {
		if d, err := url.Parse(opts.DocumentURL); err == nil {
			u = d.ResolveReference(u)
		}
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("%w: no http(s) server URL (got %q): set baseUrl", ErrInvalidDocument, raw)
	}
	u.RawQuery, u.Fragment = "", ""
	return strings.TrimSuffix(u.String(), "/"), nil
}

// built is an operation made into a tool.
type built struct {
	op            Operation
	description   string
	input, output json.RawMessage
}

// ignoredHeaders are header parameters OpenAPI says to ignore: the client sets them.
var ignoredHeaders = []string{"accept", "content-type", "authorization"}

// build makes an operation's tool, or says why it cannot.
func build(components map[string]any, method, path string, item *openapi3.PathItem, op *openapi3.Operation) (built, string) {
	b := built{op: Operation{Method: method, Path: path}}
	in := newConverter(components, request)
	props := map[string]any{}
	var required []any
	// Path-level parameters apply unless the operation redefines them (same name and place).
	params := slices.Clone(op.Parameters)
	for _, pp := range item.Parameters {
		if pp == nil || pp.Value == nil {
			continue
		}
		if op.Parameters.GetByInAndName(pp.Value.In, pp.Value.Name) == nil {
			params = append(params, pp)
		}
	}
	for _, pr := range params {
		if pr == nil || pr.Value == nil {
			return built{}, "a parameter reference does not resolve"
		}
		p := pr.Value
		if p.In == openapi3.ParameterInHeader && slices.Contains(ignoredHeaders, strings.ToLower(p.Name)) {
			continue
		}
		explode, deep, reason := style(p)
		if reason != "" {
			return built{}, reason
		}
		if _, dup := props[p.Name]; dup || p.Name == "body" && op.RequestBody != nil {
			return built{}, fmt.Sprintf("parameter name %q is used twice", p.Name)
		}
		var schema any = map[string]any{}
		if p.Schema != nil {
			if err := roundTrip(p.Schema, &schema); err != nil {
				return built{}, "parameter " + p.Name + ": " + err.Error()
			}
		}
		s := in.convert(schema, 0)
		if sm, ok := s.(map[string]any); ok && p.Description != "" {
			if _, has := sm["description"]; !has {
				sm["description"] = p.Description
			}
		}
		props[p.Name] = s
		if p.Required || p.In == openapi3.ParameterInPath {
			required = append(required, p.Name)
		}
		b.op.Params = append(b.op.Params, Param{Name: p.Name, In: p.In, Explode: explode, Deep: deep})
	}
	if op.RequestBody != nil {
		rb := op.RequestBody.Value
		if rb == nil {
			return built{}, "the request body reference does not resolve"
		}
		if len(rb.Content) > 0 {
			if _, media := jsonMedia(rb.Content); media == nil && !emptyBody(rb.Content) {
				return built{}, "the request body is not JSON (" + strings.Join(mediaTypes(rb.Content), ", ") + ")"
			}
		}
		if mt, media := jsonMedia(rb.Content); media != nil {
			var schema any = map[string]any{}
			if media.Schema != nil {
				if err := roundTrip(media.Schema, &schema); err != nil {
					return built{}, "request body: " + err.Error()
				}
			}
			s := in.convert(schema, 0)
			if sm, ok := s.(map[string]any); ok && rb.Description != "" {
				if _, has := sm["description"]; !has {
					sm["description"] = rb.Description
				}
			}
			props["body"] = s
			if rb.Required {
				required = append(required, "body")
			}
			b.op.Body = mt
		}
	}
	input := map[string]any{"type": "object", "properties": props, "additionalProperties": false}
	if len(required) > 0 {
		input["required"] = required
	}
	var err error
	if b.input, err = json.Marshal(in.withDefs(input)); err != nil {
		return built{}, err.Error()
	}
	output, text, reason := outputSchema(components, op)
	if reason != "" {
		return built{}, reason
	}
	b.op.Text = text
	if output != nil {
		if b.output, err = json.Marshal(output); err != nil {
			return built{}, err.Error()
		}
	}
	b.description = describe(method, path, op)
	return b, ""
}

// style checks a parameter's place and style and returns whether it explodes and whether it
// is a deepObject query parameter.
func style(p *openapi3.Parameter) (explode, deep bool, reason string) {
	if p.Content != nil && p.Schema == nil {
		return false, false, fmt.Sprintf("parameter %q is described by content, not a schema", p.Name)
	}
	var want string
	switch p.In {
	case openapi3.ParameterInPath, openapi3.ParameterInHeader:
		want = openapi3.SerializationSimple
	case openapi3.ParameterInQuery:
		want = openapi3.SerializationForm
		if p.Style == openapi3.SerializationDeepObject {
			return true, true, ""
		}
	default:
		return false, false, fmt.Sprintf("%s parameter %q is not supported", p.In, p.Name)
	}
	if p.Style != "" && p.Style != want {
		return false, false, fmt.Sprintf("%s parameter %q has style %s (supported: %s)", p.In, p.Name, p.Style, want)
	}
	if p.Explode != nil {
		return *p.Explode, false, ""
	}
	return want == openapi3.SerializationForm, false, ""
}

// emptyBody reports whether every media type of a request body is an object schema without
// properties that allows no others: there is nothing to send, and the tool sends no body.
func emptyBody(content openapi3.Content) bool {
	for _, media := range content {
		if media == nil || media.Schema == nil || media.Schema.Value == nil {
			return false
		}
		s := media.Schema.Value
		if len(s.Properties) > 0 || s.AdditionalProperties.Has == nil || *s.AdditionalProperties.Has {
			return false
		}
	}
	return true
}

// jsonMedia picks the JSON media type of a content map: application/json first, else any
// */json or */*+json, in name order.
func jsonMedia(content openapi3.Content) (string, *openapi3.MediaType) {
	types := mediaTypes(content)
	for _, t := range types {
		if mt, _, _ := mime.ParseMediaType(t); mt == "application/json" {
			return t, content[t]
		}
	}
	for _, t := range types {
		if isJSON(t) {
			return t, content[t]
		}
	}
	return "", nil
}

// isJSON reports whether a media type is JSON.
func isJSON(t string) bool {
	mt, _, err := mime.ParseMediaType(t)
	if err != nil {
		return false
	}
	return strings.HasSuffix(mt, "/json") || strings.HasSuffix(mt, "+json")
}

func mediaTypes(content openapi3.Content) []string {
	out := make([]string, 0, len(content))
	for t := range content {
		out = append(out, t)
	}
	sort.Strings(out)
	return out
}

// outputSchema is the schema of the first 2xx response (in status order) with a body: JSON
// its schema, text a string; nil when the 2xx responses have no body. Server-sent events and
// binary bodies are reasons to skip the operation.
func outputSchema(components map[string]any, op *openapi3.Operation) (schema map[string]any, text bool, reason string) {
	if op.Responses == nil {
		return nil, false, ""
	}
	all := op.Responses.Map()
	codes := make([]string, 0, len(all))
	for code := range all {
		if strings.HasPrefix(code, "2") {
			codes = append(codes, code)
		}
	}
	sort.Strings(codes)
	for _, code := range codes {
		r := all[code]
		if r == nil || r.Value == nil || len(r.Value.Content) == 0 {
			continue
		}
		if _, media := jsonMedia(r.Value.Content); media != nil {
			var schema any = map[string]any{}
			if media.Schema != nil {
				if err := roundTrip(media.Schema, &schema); err != nil {
					return nil, false, "response: " + err.Error()
				}
			}
			return newConverter(components, response).root(schema), false, ""
		}
		types := mediaTypes(r.Value.Content)
		for _, t := range types {
			if mt, _, _ := mime.ParseMediaType(t); mt == "text/event-stream" {
				return nil, false, "the response is a stream of server-sent events"
			}
		}
		for _, t := range types {
			if mt, _, _ := mime.ParseMediaType(t); strings.HasPrefix(mt, "text/") {
				return map[string]any{"type": "string"}, true, ""
			}
		}
		return nil, false, "the response is binary (" + strings.Join(types, ", ") + ")"
	}
	return nil, false, ""
}

// describe is a tool's description: the operation's summary and description, and its request.
func describe(method, path string, op *openapi3.Operation) string {
	var parts []string
	for _, s := range []string{op.Summary, op.Description} {
		if s = strings.TrimSpace(s); s != "" && !slices.Contains(parts, s) {
			parts = append(parts, s)
		}
	}
	d := strings.Join(parts, "\n\n")
	if len(d) > maxDescription {
		cut := maxDescription
		for cut > 0 && d[cut]&0xC0 == 0x80 {
			cut--
		}
		d = d[:cut] + "…"
	}
	if d != "" {
		d += "\n\n"
	}
	return d + method + " " + path
}
