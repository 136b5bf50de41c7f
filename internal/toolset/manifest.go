package toolset

import (
	"encoding/json"
	"fmt"
)

// Manifest is what GET <url> returns.
type Manifest struct {
	// Tools lists the toolset's tools.
	Tools []ManifestTool `json:"tools"`
	// Namespaces describes namespaces of the tool paths (optional).
	Namespaces []Namespace `json:"namespaces,omitempty"`
	// Extensions are globals the toolset offers programs besides its tools (optional): not
	// described to the model, called with POST {"extension", "function", "args"}.
	Extensions []ManifestExtension `json:"extensions,omitempty"`
}

// ManifestExtension is a global a toolset offers: a function itself (no Functions), or an
// object of functions (fs with readFile and promises.readFile).
type ManifestExtension struct {
	// Name is the global's name ("fetch", "fs").
	Name string `json:"name"`
	// Async, for a global that is a function itself, makes calls return a promise.
	Async bool `json:"async,omitempty"`
	// Functions are the global's functions by dotted path ("readFile", "promises.readFile").
	Functions []ManifestFunction `json:"functions,omitempty"`
}

// ManifestFunction is a function of an extension.
type ManifestFunction struct {
	// Path is the function's dotted path within the global.
	Path string `json:"path"`
	// Async makes calls return a promise; otherwise the program waits for the answer.
	Async bool `json:"async,omitempty"`
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

// Namespace describes a dotted prefix of a manifest's tool paths ("math" for
// math.add).
type Namespace struct {
	// Path is the dotted path of the namespace.
	Path string `json:"path"`
	// Description says what the namespace's tools are for.
	Description string `json:"description,omitempty"`
}

// DecodeManifest decodes a manifest: a JSON object with a "tools" array, and nothing after it.
// Unknown fields are ignored, for forward compatibility; members are matched as encoding/json
// matches them (case-insensitively), which manifests stored since the first release rely on.
// Whether its paths and schemas are ones the runtime accepts is checked where its tools are
// made (runtools.ParseManifest), not by the protocol.
func DecodeManifest(data []byte) (*Manifest, error) {
	var m Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidManifest, err)
	}
	if m.Tools == nil {
		return nil, fmt.Errorf("%w: no \"tools\" array", ErrInvalidManifest)
	}
	return &m, nil
}
