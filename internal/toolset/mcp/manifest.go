package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/codemode/codemode/internal/toolset"
)

// ManifestTool is a tool of an MCP toolset's stored manifest: the tool protocol's manifest
// entry (so that catalogs read it like any other) and the tool's MCP name and title.
type ManifestTool struct {
	toolset.ManifestTool
	// Name is the tool's MCP name, which calls send.
	Name string `json:"name"`
	// Title is the tool's human-readable title, when it has one.
	Title string `json:"title,omitempty"`
}

// Manifest is an MCP toolset's stored manifest.
type Manifest struct {
	Tools []ManifestTool `json:"tools"`
}

// List connects to the server, lists its tools (every page) and returns them as a manifest:
// each tool's path (Path, made unique), description (led by its title, see describe), input
// schema and output schema (when the tool declares one).
func List(ctx context.Context, cfg Config) (json.RawMessage, error) {
	s, err := connect(ctx, cfg)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	ctx, cancel := context.WithTimeout(ctx, cfg.withDefaults().Timeout)
	defer cancel()
	var listed []*mcp.Tool
	for t, err := range s.Tools(ctx, nil) {
		if err != nil {
			return nil, fmt.Errorf("list the tools of MCP server %s: %w", cfg.URL, err)
		}
		listed = append(listed, t)
	}
	names := make([]string, len(listed))
	for i, t := range listed {
		names[i] = t.Name
	}
	m := Manifest{Tools: make([]ManifestTool, 0, len(listed))}
	for i, p := range paths(names) {
		t := listed[i]
		mt := ManifestTool{ManifestTool: toolset.ManifestTool{Path: p, Description: describe(t)}, Name: t.Name, Title: t.Title}
		if mt.Input, err = schema(t.InputSchema); err != nil {
			return nil, fmt.Errorf("tool %s: input schema: %w", t.Name, err)
		}
		if mt.Output, err = schema(t.OutputSchema); err != nil {
			return nil, fmt.Errorf("tool %s: output schema: %w", t.Name, err)
		}
		m.Tools = append(m.Tools, mt)
	}
	return json.Marshal(m)
}

// describe is the tool's description, led by "<title>: " when the tool has a title (other than
// its name) the description does not already start with.
func describe(t *mcp.Tool) string {
	title := t.Title
	if title == "" && t.Annotations != nil {
		title = t.Annotations.Title
	}
	switch {
	case title == "" || title == t.Name:
		return t.Description
	case t.Description == "":
		return title
	}
	if t.Description == title || strings.HasPrefix(t.Description, title+":") {
		return t.Description
	}
	return title + ": " + t.Description
}

// schema is a listed schema as JSON; nil for none.
func schema(s any) (json.RawMessage, error) {
	if s == nil {
		return nil, nil
	}
	raw, err := json.Marshal(s)
	if err != nil {
		return nil, err
	}
	if string(raw) == "null" {
		return nil, nil
	}
	return raw, nil
}

// ParseManifest decodes a stored MCP manifest.
func ParseManifest(data []byte) (*Manifest, error) {
	var m Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("%w: %w", toolset.ErrInvalidManifest, err)
	}
	for _, t := range m.Tools {
		if t.Name == "" {
			return nil, fmt.Errorf("%w: tool %s has no MCP name", toolset.ErrInvalidManifest, t.Path)
		}
	}
	return &m, nil
}
