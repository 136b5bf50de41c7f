// Package runtools makes the runtime's tools (run.Tool) of HTTP toolsets, and holds the
// built-in durable tools time.sleep and approvals.request.
//
// It is the seam between the tool protocol and the runtime: internal/toolset speaks the
// protocol (manifests, calls, cancels, signing, retries) and knows nothing of the interpreter;
// this package mounts a manifest's tools under the toolset's name, checks its paths and schemas
// against the runtime's rules, and adapts the client's calls to run.Tool's Execute and
// run.Durable.
package runtools

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/codemode/codemode/internal/run"
	"github.com/codemode/codemode/internal/toolcall"
	"github.com/codemode/codemode/internal/toolset"
)

// Toolset is a loaded toolset: its tools as run.Tools mounted under the client's configured
// Name, its namespaces, and the manifest they came from.
type Toolset struct {
	// Tools are ready to register with run.NewToolbox.
	Tools []run.Tool
	// Namespaces are the manifest's namespaces (mounted), plus the mount namespace itself when
	// Config.Name is set.
	Namespaces []run.Namespace
	// Manifest is the manifest as read.
	Manifest *toolset.Manifest
	// Extensions are the manifest's extensions: globals whose functions call the toolset
	// (extensions.go), for run.Options.Extensions.
	Extensions []run.Extension
}

// ParseManifest decodes a manifest (toolset.DecodeManifest) and checks it against the
// runtime's rules (Check).
func ParseManifest(data []byte) (*toolset.Manifest, error) {
	m, err := toolset.DecodeManifest(data)
	if err != nil {
		return nil, err
	}
	if err := Check(m); err != nil {
		return nil, err
	}
	return m, nil
}

// Check reports whether the runtime accepts a manifest's tools: valid and unique paths, no tool
// that is also a namespace, schemas that compile (see run.NewToolbox), and extensions it accepts
// (see run.Extension). Its errors wrap toolset.ErrInvalidManifest.
func Check(m *toolset.Manifest) error {
	return check(m, false)
}

// check is Check, and with cycles CheckNew's refusal of reference cycles, on the schemas as
// compiled once.
func check(m *toolset.Manifest, cycles bool) error {
	// Compile everything once with stand-in implementations, so a bad path or schema is
	// reported before any tool is used.
	tools := make([]run.Tool, len(m.Tools))
	for i, t := range m.Tools {
		tools[i] = run.Tool{Path: t.Path, Input: t.Input, Output: t.Output, Execute: noExecute}
	}
	box, err := run.NewToolbox(tools, namespaces(m, ""))
	if err != nil {
		return fmt.Errorf("%w: %w", toolset.ErrInvalidManifest, err)
	}
	if cycles {
		if err := box.CheckCycles(); err != nil {
			return fmt.Errorf("%w: %w", toolset.ErrInvalidManifest, err)
		}
	}
	if err := checkExtensions(m); err != nil {
		return fmt.Errorf("%w: %w", toolset.ErrInvalidManifest, err)
	}
	return nil
}

// MaxSchemaDepth bounds how deeply the arrays and objects of a tool's input or output schema
// nest. Compiling a schema costs time that grows with the square of its depth, and workers
// compile a toolset's schemas for every run that mounts it.
const MaxSchemaDepth = 64

// ParseNewManifest is ParseManifest for a manifest being registered: CheckNew's rules.
func ParseNewManifest(data []byte) (*toolset.Manifest, error) {
	m, err := toolset.DecodeManifest(data)
	if err != nil {
		return nil, err
	}
	if err := CheckNew(m); err != nil {
		return nil, err
	}
	return m, nil
}

// CheckNew is Check for a manifest being registered: CheckDepth first (before anything is
// compiled), then Check, refusing besides a tool whose input or output schema has a reference
// cycle validation can reach (run.Schema.CheckCycles): a $ref to itself, or $refs, allOf and
// the like leading back to a subschema with no keyword between that descends into the value,
// which fails every call whose input or output reaches it. A schema that recurses through
// properties or items (a tree) is accepted. Check does not refuse cycles, so that a manifest
// stored before the check keeps loading for the runs that recorded it. The cycle's error
// wraps toolset.ErrInvalidManifest and run.ErrInvalidSchema.
func CheckNew(m *toolset.Manifest) error {
	if err := CheckDepth(m); err != nil {
		return err
	}
	return check(m, true)
}

// CheckDepth refuses a manifest whose schemas nest deeper than MaxSchemaDepth. Registration
// applies it, not Check: a manifest stored before the limit keeps loading for the runs that
// recorded it, slow as it is to compile.
func CheckDepth(m *toolset.Manifest) error {
	for _, t := range m.Tools {
		for _, sc := range []struct {
			what   string
			schema json.RawMessage
		}{{"input", t.Input}, {"output", t.Output}} {
			if d := nesting(sc.schema); d > MaxSchemaDepth {
				return fmt.Errorf("%w: tool %s: %s schema: nested %d levels deep, more than %d",
					toolset.ErrInvalidManifest, t.Path, sc.what, d, MaxSchemaDepth)
			}
		}
	}
	return nil
}

// nesting returns how deeply the arrays and objects of the JSON value v nest (0 for a scalar).
func nesting(v json.RawMessage) int {
	depth, deepest := 0, 0
	inString, escaped := false, false
	for _, c := range v {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			depth++
			deepest = max(deepest, depth)
		case c == '}' || c == ']':
			depth--
		}
	}
	return deepest
}

func noExecute(context.Context, json.RawMessage, toolcall.Call) (json.RawMessage, error) {
	return nil, nil
}

// Load reads the toolset's manifest with a client made of cfg, checks it and returns its tools.
func Load(ctx context.Context, cfg toolset.Config) ([]run.Tool, []run.Namespace, error) {
	c, err := toolset.New(cfg)
	if err != nil {
		return nil, nil, err
	}
	ts, err := LoadFrom(ctx, c)
	if err != nil {
		return nil, nil, err
	}
	return ts.Tools, ts.Namespaces, nil
}

// LoadFrom reads the manifest with c, checks it and returns the toolset's tools. Plain tools call
// POST <url> on Execute; durable tools start work with POST <url> and cannot be attached to in
// process (their outcome is posted to the API).
func LoadFrom(ctx context.Context, c *toolset.Client) (*Toolset, error) {
	if name := c.Config().Name; name != "" {
		if err := run.ValidatePath(name); err != nil {
			return nil, fmt.Errorf("%w: name: %w", toolset.ErrInvalidConfig, err)
		}
	}
	m, err := c.Manifest(ctx)
	if err != nil {
		return nil, err
	}
	if err := Check(m); err != nil {
		return nil, fmt.Errorf("toolset %s: %w", c.Config().URL, err)
	}
	return FromManifest(c, m), nil
}

// FromManifest makes the toolset's tools from a manifest already read and checked (Check,
// ParseManifest), for hosts that store manifests (the durable service).
func FromManifest(c *toolset.Client, m *toolset.Manifest) *Toolset {
	name := c.Config().Name
	ts := &Toolset{Manifest: m}
	for _, mt := range m.Tools {
		t := run.Tool{
			Path:        mount(name, mt.Path),
			Description: mt.Description,
			Input:       mt.Input,
			Output:      mt.Output,
		}
		if mt.Durable {
			t.Durable = &durableTool{client: c, tool: mt.Path}
		} else {
			t.Execute = executeFunc(c, mt.Path)
		}
		ts.Tools = append(ts.Tools, t)
	}
	if name != "" {
		ts.Namespaces = append(ts.Namespaces, run.Namespace{Path: name, Description: c.Config().Description})
	}
	ts.Namespaces = append(ts.Namespaces, namespaces(m, name)...)
	// Check accepted the extensions: making them again cannot fail.
	ts.Extensions, _ = extensionsOf(m, extensionFunc(c))
	return ts
}

// namespaces returns the manifest's namespaces mounted under name.
func namespaces(m *toolset.Manifest, name string) []run.Namespace {
	out := make([]run.Namespace, 0, len(m.Namespaces))
	for _, ns := range m.Namespaces {
		out = append(out, run.Namespace{Path: mount(name, ns.Path), Description: ns.Description})
	}
	return out
}

func mount(name, path string) string {
	if name == "" {
		return path
	}
	return name + "." + path
}

func executeFunc(c *toolset.Client, tool string) func(context.Context, json.RawMessage, toolcall.Call) (json.RawMessage, error) {
	return func(ctx context.Context, input json.RawMessage, call toolcall.Call) (json.RawMessage, error) {
		r, err := c.Call(ctx, tool, input, call)
		if err != nil {
			return nil, err
		}
		if r.Pending {
			return nil, fmt.Errorf("tool %s: %w: 202 from a tool the manifest does not declare durable", tool, toolset.ErrProtocol)
		}
		return r.Output, nil
	}
}

// durableTool adapts a durable manifest tool to run.Durable.
type durableTool struct {
	client *toolset.Client
	tool   string
}

var _ run.Durable = (*durableTool)(nil)

// Start posts the call: a 200 finishes at once, a 202 returns the handle.
func (d *durableTool) Start(ctx context.Context, input json.RawMessage, call toolcall.Call) (run.Started, error) {
	r, err := d.client.Call(ctx, d.tool, input, call)
	if err != nil {
		return run.Started{}, err
	}
	if r.Pending {
		return run.Started{Handle: r.Handle}, nil
	}
	return run.Started{Done: true, Output: r.Output}, nil
}

// Attach returns run.ErrNotAttachable: the outcome of HTTP durable work arrives through the API.
func (d *durableTool) Attach(context.Context, json.RawMessage, toolcall.Call) (toolcall.Outcome, error) {
	return toolcall.Outcome{}, run.ErrNotAttachable
}

// Cancel posts a cancel request for the work. The runtime calls it only for a run without a
// journal (codemode eval); the durable service cancels through its call.cancel job.
func (d *durableTool) Cancel(ctx context.Context, handle json.RawMessage, call toolcall.Call) error {
	return d.client.Cancel(ctx, d.tool, call.Key, handle)
}
