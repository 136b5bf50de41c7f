package run

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/codemode/codemode/internal/toolcall"
)

// Tool is one host function a program can call as tools.<path>(input).
// Exactly one of Execute and Durable must be set.
type Tool struct {
	// Path is the dotted path of the tool; dots make nested namespaces
	// ("math.add" is tools.math.add). Segments are non-empty and may be any
	// other string: programs reach non-identifier segments with brackets.
	Path string
	// Description says what the tool does; shown in catalogs and search.
	Description string
	// Input is the JSON Schema of the input; nil accepts anything.
	Input json.RawMessage
	// Output is the JSON Schema of the output; nil accepts anything.
	Output json.RawMessage
	// Execute runs a plain tool and returns its output as JSON. A *toolcall.ToolError
	// is seen by the program as a thrown Error with its message.
	Execute func(ctx context.Context, input json.RawMessage, call toolcall.Call) (json.RawMessage, error)
	// Durable runs a durable tool: long-running work identified by a handle,
	// during which the run may be suspended.
	Durable Durable
}

// Durable is a tool whose work may outlive the process that started it.
type Durable interface {
	// Start begins the work. It may finish at once (Started.Done with
	// Output) or return a Handle naming the work in progress.
	Start(ctx context.Context, input json.RawMessage, call toolcall.Call) (Started, error)
	// Attach waits in-process for the outcome of started work (a timer, for
	// instance). It returns ErrNotAttachable when the outcome can only arrive
	// from outside (an approval, a webhook); the run then suspends.
	Attach(ctx context.Context, handle json.RawMessage, call toolcall.Call) (toolcall.Outcome, error)
	// Cancel stops started work, for a run cancelled or ended while the call
	// was pending. Cancelling finished or unknown work is not an error.
	Cancel(ctx context.Context, handle json.RawMessage, call toolcall.Call) error
}

// Started is what Durable.Start reports.
type Started struct {
	// Done is true when the work finished at once; Output is then its output.
	Done bool
	// Output is the tool's output when Done.
	Output json.RawMessage
	// Handle names the work in progress when not Done; any JSON value.
	Handle json.RawMessage
}

// Namespace describes a dotted prefix of tool paths ("math" for math.add).
type Namespace struct {
	// Path is the dotted path of the namespace.
	Path string `json:"path"`
	// Description says what the namespace's tools are for.
	Description string `json:"description,omitempty"`
}

// ErrNotAttachable is returned by Durable.Attach when the outcome of the work
// can only arrive from outside the process.
var ErrNotAttachable = errors.New("outcome cannot be awaited in process")

// ErrInvalidTool is wrapped by every error about a malformed tool or
// namespace registration.
var ErrInvalidTool = errors.New("invalid tool")

// UnknownToolError reports a call to a path that is not a tool.
type UnknownToolError struct {
	// Path is the registered-style dotted path that was called.
	Path string
	// Suggestion is the nearest tool path, or "" when none is close.
	Suggestion string
	// Namespace is true when Path names a namespace rather than nothing.
	Namespace bool
}

// Error reads "tools.math.ad is not a tool; did you mean tools.math.add?".
func (e *UnknownToolError) Error() string {
	var b strings.Builder
	b.WriteString(AccessPath(e.Path))
	if e.Namespace {
		b.WriteString(" is a namespace, not a tool")
	} else {
		b.WriteString(" is not a tool")
	}
	if e.Suggestion != "" {
		b.WriteString("; did you mean ")
		b.WriteString(AccessPath(e.Suggestion))
		b.WriteString("?")
	}
	return b.String()
}

var identifierRE = regexp.MustCompile(`^[A-Za-z_$][A-Za-z0-9_$]*$`)

// IsIdentifier reports whether s can follow a dot in JavaScript (ASCII
// identifiers only; anything else is rendered in bracket form).
func IsIdentifier(s string) bool { return identifierRE.MatchString(s) }

// AccessPath renders the expression that reaches path from a program:
// "math.add" → "tools.math.add", "context7.resolve-library-id" →
// `tools.context7["resolve-library-id"]`. The empty path is "tools".
func AccessPath(path string) string {
	var b strings.Builder
	b.WriteString("tools")
	if path == "" {
		return b.String()
	}
	for _, seg := range strings.Split(path, ".") {
		if IsIdentifier(seg) {
			b.WriteByte('.')
			b.WriteString(seg)
			continue
		}
		q, _ := json.Marshal(seg)
		b.WriteByte('[')
		b.Write(q)
		b.WriteByte(']')
	}
	return b.String()
}

// MaxPathLength caps a tool or namespace path, in bytes.
const MaxPathLength = 512

// ValidatePath checks a dotted tool or namespace path: at most
// MaxPathLength bytes of valid UTF-8 without control characters, non-empty
// segments, and no "__proto__" segment.
func ValidatePath(path string) error {
	if path == "" {
		return fmt.Errorf("%w: empty path", ErrInvalidTool)
	}
	if len(path) > MaxPathLength {
		return fmt.Errorf("%w: path of %d bytes is longer than %d", ErrInvalidTool, len(path), MaxPathLength)
	}
	if !utf8.ValidString(path) || strings.IndexFunc(path, unicode.IsControl) >= 0 {
		return fmt.Errorf("%w: path %q has invalid UTF-8 or control characters", ErrInvalidTool, path)
	}
	for _, seg := range strings.Split(path, ".") {
		if seg == "" {
			return fmt.Errorf("%w: path %q has an empty segment", ErrInvalidTool, path)
		}
		if seg == "__proto__" {
			return fmt.Errorf("%w: path %q has a __proto__ segment", ErrInvalidTool, path)
		}
	}
	return nil
}

// entry is a registered tool with its compiled schemas.
type entry struct {
	tool   Tool
	input  *Schema
	output *Schema
}

// Toolbox holds a validated set of tools and namespaces. It is immutable after
// NewToolbox and safe for concurrent use.
type Toolbox struct {
	tools      map[string]*entry
	paths      []string             // tool paths, sorted
	namespaces map[string]Namespace // every prefix of a tool path, described or not
	children   map[string][]string  // namespace path ("" = root) → sorted child segments

	catalogOnce sync.Once
	catalog     []Descriptor
}

// NewToolbox validates tools and namespaces and compiles the tools' schemas.
// Paths must be valid (see ValidatePath), unique, and a tool path must not be
// a prefix namespace of another tool. Namespaces may be described before any
// tool lives in them; prefixes of tool paths are namespaces even when not
// listed. Errors wrap ErrInvalidTool or describe a schema that fails to
// compile.
func NewToolbox(tools []Tool, namespaces []Namespace) (*Toolbox, error) {
	b := &Toolbox{
		tools:      make(map[string]*entry, len(tools)),
		namespaces: make(map[string]Namespace),
		children:   make(map[string][]string),
	}
	for _, t := range tools {
		if err := ValidatePath(t.Path); err != nil {
			return nil, err
		}
		if (t.Execute == nil) == (t.Durable == nil) {
			return nil, fmt.Errorf("%w: tool %s needs exactly one of Execute and Durable", ErrInvalidTool, t.Path)
		}
		if _, dup := b.tools[t.Path]; dup {
			return nil, fmt.Errorf("%w: duplicate tool %s", ErrInvalidTool, t.Path)
		}
		e := &entry{tool: t}
		var err error
		if e.input, err = CompileSchema(t.Input); err != nil {
			return nil, fmt.Errorf("tool %s: input schema: %w", t.Path, err)
		}
		if e.output, err = CompileSchema(t.Output); err != nil {
			return nil, fmt.Errorf("tool %s: output schema: %w", t.Path, err)
		}
		b.tools[t.Path] = e
		b.paths = append(b.paths, t.Path)
		segs := strings.Split(t.Path, ".")
		for i := 1; i < len(segs); i++ {
			ns := strings.Join(segs[:i], ".")
			if _, ok := b.namespaces[ns]; !ok {
				b.namespaces[ns] = Namespace{Path: ns}
			}
		}
	}
	for _, ns := range namespaces {
		if err := ValidatePath(ns.Path); err != nil {
			return nil, err
		}
		if old, ok := b.namespaces[ns.Path]; ok && old.Description != "" && ns.Description != "" && old.Description != ns.Description {
			return nil, fmt.Errorf("%w: namespace %s described twice", ErrInvalidTool, ns.Path)
		}
		b.namespaces[ns.Path] = ns
		segs := strings.Split(ns.Path, ".")
		for i := 1; i < len(segs); i++ {
			p := strings.Join(segs[:i], ".")
			if _, ok := b.namespaces[p]; !ok {
				b.namespaces[p] = Namespace{Path: p}
			}
		}
	}
	for p := range b.tools {
		if _, clash := b.namespaces[p]; clash {
			return nil, fmt.Errorf("%w: %s is both a tool and a namespace", ErrInvalidTool, p)
		}
	}
	sort.Strings(b.paths)
	seen := make(map[string]bool)
	addChild := func(path string) {
		parent, seg := "", path
		if i := strings.LastIndexByte(path, '.'); i >= 0 {
			parent, seg = path[:i], path[i+1:]
		}
		if !seen[path] {
			seen[path] = true
			b.children[parent] = append(b.children[parent], seg)
		}
	}
	for p := range b.tools {
		addChild(p)
	}
	for p := range b.namespaces {
		addChild(p)
	}
	for k := range b.children {
		sort.Strings(b.children[k])
	}
	return b, nil
}

// CheckCycles is Schema.CheckCycles for the input and output schemas of every tool, in path
// order; the error names the tool and the schema ("tool a.b: input schema: ...").
func (b *Toolbox) CheckCycles() error {
	for _, p := range b.paths {
		e := b.tools[p]
		if err := e.input.CheckCycles(); err != nil {
			return fmt.Errorf("tool %s: input schema: %w", p, err)
		}
		if err := e.output.CheckCycles(); err != nil {
			return fmt.Errorf("tool %s: output schema: %w", p, err)
		}
	}
	return nil
}

// Len returns the number of tools.
func (b *Toolbox) Len() int { return len(b.paths) }

// Lookup returns the tool registered at path.
func (b *Toolbox) Lookup(path string) (Tool, bool) {
	e, ok := b.tools[path]
	if !ok {
		return Tool{}, false
	}
	return e.tool, true
}

// IsNamespace reports whether path is a namespace (a proper prefix of some
// tool path, or a described namespace). The empty path is the root namespace.
func (b *Toolbox) IsNamespace(path string) bool {
	if path == "" {
		return true
	}
	_, ok := b.namespaces[path]
	return ok
}

// Children returns the sorted segment names directly under the namespace
// path ("" for the root): tools and namespaces alike.
func (b *Toolbox) Children(path string) []string {
	return append([]string(nil), b.children[path]...)
}

// Tools returns every tool, sorted by path.
func (b *Toolbox) Tools() []Tool {
	out := make([]Tool, len(b.paths))
	for i, p := range b.paths {
		out[i] = b.tools[p].tool
	}
	return out
}

// Namespaces returns every namespace (described or implied by tool paths),
// sorted by path.
func (b *Toolbox) Namespaces() []Namespace {
	out := make([]Namespace, 0, len(b.namespaces))
	for _, ns := range b.namespaces {
		out = append(out, ns)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// Resolve returns the tool at path, or an *UnknownToolError that suggests
// the nearest tool path.
func (b *Toolbox) Resolve(path string) (Tool, error) {
	if t, ok := b.Lookup(path); ok {
		return t, nil
	}
	return Tool{}, &UnknownToolError{Path: path, Suggestion: b.Suggest(path), Namespace: b.IsNamespace(path)}
}

// ValidateInput checks input against the input schema of the tool at path.
// Violations are a *SchemaError naming locations under "input".
func (b *Toolbox) ValidateInput(path string, input json.RawMessage) error {
	e, ok := b.tools[path]
	if !ok {
		return &UnknownToolError{Path: path, Suggestion: b.Suggest(path), Namespace: b.IsNamespace(path)}
	}
	return e.input.Validate("input", input)
}

// ValidateOutput checks output against the output schema of the tool at
// path. Violations are a *SchemaError naming locations under "output".
func (b *Toolbox) ValidateOutput(path string, output json.RawMessage) error {
	e, ok := b.tools[path]
	if !ok {
		return &UnknownToolError{Path: path, Suggestion: b.Suggest(path), Namespace: b.IsNamespace(path)}
	}
	return e.output.Validate("output", output)
}

// Suggest returns the tool path nearest to path, or "" when no tool is close.
// Distances are edit distances (case-insensitive) over whole paths and over
// last segments; a candidate is close when its distance is at most a third
// of the longer string (at least 1, at most 3). Ties go to the sorted-first
// path.
func (b *Toolbox) Suggest(path string) string {
	lp := strings.ToLower(path)
	last := lp
	if i := strings.LastIndexByte(lp, '.'); i >= 0 {
		last = lp[i+1:]
	}
	best, bestD := "", 1<<30
	for _, cand := range b.paths {
		lc := strings.ToLower(cand)
		d := levenshtein(lp, lc)
		if !isNear(d, lp, lc) {
			d = 1 << 30
		}
		cl := lc
		if i := strings.LastIndexByte(lc, '.'); i >= 0 {
			cl = lc[i+1:]
		}
		// A matching last segment in another namespace counts, slightly
		// behind a whole-path match of the same distance.
		if dl := levenshtein(last, cl); isNear(dl, last, cl) && dl+1 < d {
			d = dl + 1
		}
		if d < bestD {
			best, bestD = cand, d
		}
	}
	if bestD >= 1<<30 {
		return ""
	}
	return best
}

func isNear(d int, a, b string) bool {
	n := max(len(a), len(b))
	limit := min(max(n/3, 1), 3)
	return d <= limit
}

// levenshtein is the edit distance between a and b over bytes.
func levenshtein(a, b string) int {
	if a == b {
		return 0
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
