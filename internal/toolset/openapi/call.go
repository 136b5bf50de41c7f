package openapi

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/codemode/codemode/internal/run"
	"github.com/codemode/codemode/internal/toolcall"
	"github.com/codemode/codemode/internal/toolset"
	"github.com/codemode/codemode/internal/toolset/runtools"
)

// Config is what Load needs besides the manifest.
type Config struct {
	// Name mounts the tools under tools.<Name>; Description describes that namespace.
	Name, Description string
	// Source is the operations the tools call (from Parse, as stored).
	Source Source
	// Auth is applied to every request; nil for none.
	Auth *Auth
	// HTTPClient sends the requests: the service's client obeying the egress policy.
	HTTPClient *http.Client
	// Logger receives a debug line per retried attempt.
	Logger *slog.Logger
	// Retries and Backoff override the tool protocol's defaults (internal/toolset.Config),
	// which apply when zero.
	Retries int
	Backoff toolset.Backoff
}

// maxErrorExcerpt bounds the part of an error response's body a tool error quotes.
const maxErrorExcerpt = 512

// Load makes the run.Tools of an OpenAPI toolset from its manifest (Parse's, as stored) and
// Source: each calls its operation synchronously (OpenAPI tools are never durable).
func Load(cfg Config, m *toolset.Manifest) (*runtools.Toolset, error) {
	if cfg.Name != "" {
		if err := run.ValidatePath(cfg.Name); err != nil {
			return nil, fmt.Errorf("%w: name: %w", toolset.ErrInvalidConfig, err)
		}
	}
	client, err := toolset.New(toolset.Config{URL: cfg.Source.BaseURL + "/", HTTPClient: cfg.HTTPClient,
		Logger: cfg.Logger, Retries: cfg.Retries, Backoff: cfg.Backoff})
	if err != nil {
		return nil, fmt.Errorf("toolset %s: %w", cfg.Name, err)
	}
	ts := &runtools.Toolset{Manifest: m}
	for _, mt := range m.Tools {
		op, ok := cfg.Source.Operations[mt.Path]
		if !ok {
			return nil, fmt.Errorf("toolset %s: %w: tool %s has no operation", cfg.Name, toolset.ErrInvalidManifest, mt.Path)
		}
		path := mt.Path
		if cfg.Name != "" {
			path = cfg.Name + "." + mt.Path
		}
		c := caller{client: client, base: cfg.Source.BaseURL, op: op, auth: cfg.Auth}
		ts.Tools = append(ts.Tools, run.Tool{Path: path, Description: mt.Description, Input: mt.Input, Output: mt.Output, Execute: c.call})
	}
	if cfg.Name != "" {
		ts.Namespaces = append(ts.Namespaces, run.Namespace{Path: cfg.Name, Description: cfg.Description})
	}
	return ts, nil
}

// caller makes one operation's requests.
type caller struct {
	client *toolset.Client
	base   string
	op     Operation
	auth   *Auth
}

// call sends the operation's request for one tool call under its idempotency key.
func (c caller) call(ctx context.Context, input json.RawMessage, call toolcall.Call) (json.RawMessage, error) {
	label := c.op.Method + " " + c.op.Path
	if call.Key == "" {
		return nil, fmt.Errorf("%s: %w", label, toolset.ErrMissingKey)
	}
	var args map[string]json.RawMessage
	if len(bytes.TrimSpace(input)) > 0 && string(bytes.TrimSpace(input)) != "null" {
		if err := json.Unmarshal(input, &args); err != nil {
			return nil, &toolcall.ToolError{Message: fmt.Sprintf("%s: the input is not an object: %v", label, err)}
		}
	}
	path := c.op.Path
	query := url.Values{}
	header := http.Header{}
	for _, p := range c.op.Params {
		raw, ok := args[p.Name]
		if !ok || string(raw) == "null" {
			if p.In == "path" {
				return nil, &toolcall.ToolError{Message: fmt.Sprintf("%s: path parameter %s is missing", label, p.Name)}
			}
			continue
		}
		var v any
		if err := json.Unmarshal(raw, &v); err != nil {
			return nil, &toolcall.ToolError{Message: fmt.Sprintf("%s: parameter %s: %v", label, p.Name, err)}
		}
		switch p.In {
		case "path":
			// A value "", "." or ".." would make the path another one (/pets/.. is /), reaching
			// operations the document does not describe, with the toolset's credentials.
			value := simple(v, p.Explode)
			if value == "" || value == "." || value == ".." {
				return nil, &toolcall.ToolError{Message: fmt.Sprintf("%s: path parameter %s cannot be %q", label, p.Name, value)}
			}
			path = strings.ReplaceAll(path, "{"+p.Name+"}", url.PathEscape(value))
		case "header":
			value := simple(v, p.Explode)
			if strings.ContainsFunc(value, func(r rune) bool { return r < ' ' && r != '\t' || r == 0x7f }) {
				return nil, &toolcall.ToolError{Message: fmt.Sprintf("%s: header parameter %s has a control character", label, p.Name)}
			}
			header.Set(p.Name, value)
		case "query":
			switch {
			case p.Deep:
				deepObject(query, p.Name, v)
			default:
				form(query, p.Name, v, p.Explode)
			}
		}
	}
	var body []byte
	if raw, ok := args["body"]; ok && c.op.Body != "" {
		body = raw
		header.Set("Content-Type", c.op.Body)
	}
	header.Set("Accept", "application/json, text/*;q=0.5")
	header.Set("Idempotency-Key", call.Key)
	applyAuth(c.auth, header, query)
	target := c.base + path
	if q := query.Encode(); q != "" {
		target += "?" + q
	}
	status, resp, err := c.client.Send(ctx, toolset.Request{Method: c.op.Method, URL: target, Label: label, Header: header, Body: body})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", label, err)
	}
	if status < 200 || status >= 300 {
		return nil, &toolcall.ToolError{Message: fmt.Sprintf("%s answered %d %s: %s", label, status, http.StatusText(status), c.auth.Redact(excerpt(resp)))}
	}
	return output(resp, c.op.Text)
}

// output is a 2xx body as the tool's output: empty as null, a text response (text) or a body
// that is not JSON as a string, JSON as is.
func output(body []byte, text bool) (json.RawMessage, error) {
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 {
		return json.RawMessage("null"), nil
	}
	if !text && json.Valid(trimmed) {
		return trimmed, nil
	}
	return json.Marshal(string(bytes.ToValidUTF8(body, []byte("\uFFFD"))))
}

// excerpt is the start of an error body, for the tool error's message.
func excerpt(b []byte) string {
	s := strings.TrimSpace(string(bytes.ToValidUTF8(b, []byte("\uFFFD"))))
	if len(s) <= maxErrorExcerpt {
		return s
	}
	cut := maxErrorExcerpt
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// scalar is a primitive parameter value as text.
func scalar(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(x)
	case nil:
		return ""
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// sortedKeys returns an object's keys in order, for a deterministic request.
func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// simple serialises a path or header parameter (style simple): arrays comma-separated,
// objects as k,v,k,v or, exploded, k=v,k=v.
func simple(v any, explode bool) string {
	switch x := v.(type) {
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = scalar(e)
		}
		return strings.Join(parts, ",")
	case map[string]any:
		var parts []string
		for _, k := range sortedKeys(x) {
			if explode {
				parts = append(parts, k+"="+scalar(x[k]))
			} else {
				parts = append(parts, k, scalar(x[k]))
			}
		}
		return strings.Join(parts, ",")
	}
	return scalar(v)
}

// form serialises a query parameter (style form): exploded arrays repeat the name, exploded
// objects give each property its own parameter; otherwise comma-separated.
func form(q url.Values, name string, v any, explode bool) {
	switch x := v.(type) {
	case []any:
		if explode {
			for _, e := range x {
				q.Add(name, scalar(e))
			}
			return
		}
	case map[string]any:
		if explode {
			for _, k := range sortedKeys(x) {
				q.Add(k, scalar(x[k]))
			}
			return
		}
	}
	q.Add(name, simple(v, false))
}

// deepObject serialises a query parameter of style deepObject: name[key]=value, nested for
// nested objects, and name[]=item for arrays.
func deepObject(q url.Values, name string, v any) {
	switch x := v.(type) {
	case map[string]any:
		for _, k := range sortedKeys(x) {
			deepObject(q, name+"["+k+"]", x[k])
		}
	case []any:
		for _, e := range x {
			deepObject(q, name+"[]", e)
		}
	default:
		q.Add(name, scalar(v))
	}
}
