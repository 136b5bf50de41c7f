package toolset

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/codemode/codemode/internal/run"
)

// Manifest is what GET <url> returns.
type Manifest struct {
	// Tools lists the toolset's tools.
	Tools []ManifestTool `json:"tools"`
	// Namespaces describes namespaces of the tool paths (optional).
	Namespaces []run.Namespace `json:"namespaces,omitempty"`
}

// ManifestTool is one tool of a manifest.
type ManifestTool struct {
	// Path is the tool's dotted path within the toolset ("math.add").
	Path string `json:"path"`
	// Description says what the tool does.
	Description string `json:"description,omitempty"`
	// Input is the JSON Schema of the input (optional: anything).
	Input json.RawMessage `json:"input,omitempty"`
	// Output is the JSON Schema of the output (optional: anything).
	Output json.RawMessage `json:"output,omitempty"`
	// Durable is true when calls may answer 202 with a handle.
	Durable bool `json:"durable,omitempty"`
}

// ParseManifest decodes and validates a manifest: a JSON object with a
// "tools" array whose paths are valid and unique and whose schemas compile
// (see run.NewToolbox). Unknown fields are ignored, for forward
// compatibility.
func ParseManifest(data []byte) (*Manifest, error) {
	var m Manifest
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidManifest, err)
	}
	if m.Tools == nil {
		return nil, fmt.Errorf("%w: no \"tools\" array", ErrInvalidManifest)
	}
	// Compile everything once with stand-in implementations, so a bad path
	// or schema is reported before any tool is used.
	tools := make([]run.Tool, len(m.Tools))
	for i, t := range m.Tools {
		tools[i] = run.Tool{Path: t.Path, Input: t.Input, Output: t.Output, Execute: noExecute}
	}
	if _, err := run.NewToolbox(tools, m.Namespaces); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidManifest, err)
	}
	return &m, nil
}

func noExecute(context.Context, json.RawMessage, run.Call) (json.RawMessage, error) {
	return nil, nil
}
