package api

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/codemode/codemode/internal/api/gen"
	"github.com/codemode/codemode/internal/run"
	"github.com/codemode/codemode/internal/toolset"
	"github.com/codemode/codemode/internal/toolset/runtools"
)

// GetCatalog implements gen.StrictServerInterface: the tools of the toolsets as programs see
// them (tools.<toolset>.<path>), with their TypeScript signatures.
func (h *handlers) GetCatalog(ctx context.Context, req gen.GetCatalogRequestObject) (gen.GetCatalogResponseObject, error) {
	box, err := h.toolbox(ctx, req.Params.Toolsets)
	if err != nil {
		return nil, err
	}
	out := gen.Catalog{Tools: []gen.CatalogTool{}}
	for _, d := range box.Catalog() {
		name, _, _ := strings.Cut(d.Path, ".")
		ct := gen.CatalogTool{Path: d.Path, Toolset: name, Signature: d.Signature, Durable: d.Durable}
		if d.Description != "" {
			desc := d.Description
			ct.Description = &desc
		}
		ct.Input, ct.Output = schemaMap(d.Input), schemaMap(d.Output)
		out.Tools = append(out.Tools, ct)
	}
	return gen.GetCatalog200JSONResponse(out), nil
}

// GetCatalogPrompt implements gen.StrictServerInterface: model-facing instructions for an
// execute tool over the toolsets, within budgetTokens when given.
func (h *handlers) GetCatalogPrompt(ctx context.Context, req gen.GetCatalogPromptRequestObject) (gen.GetCatalogPromptResponseObject, error) {
	box, err := h.toolbox(ctx, req.Params.Toolsets)
	if err != nil {
		return nil, err
	}
	budget := 0
	if req.Params.BudgetTokens != nil {
		budget = *req.Params.BudgetTokens
	}
	return gen.GetCatalogPrompt200JSONResponse{Prompt: box.Prompt(budget)}, nil
}

// toolbox builds the runtime's toolbox of the toolsets named by filter (all when empty) from
// their stored manifests, mounted under their names as runs see them.
func (h *handlers) toolbox(ctx context.Context, filter *string) (*run.Toolbox, error) {
	stored, err := h.toolsets(ctx, filter)
	if err != nil {
		return nil, err
	}
	var (
		tools      []run.Tool
		namespaces []run.Namespace
	)
	for _, ts := range stored {
		url := ts.URL
		if ts.Kind != "" && ts.Kind != "http" {
			// The catalog never calls a tool; another kind's url (if any: an OpenAPI document
			// may be inline) is not a tool protocol URL.
			url = "http://catalog.invalid/"
		}
		client, err := toolset.New(toolset.Config{URL: url, Name: ts.Name, Description: ts.Description})
		if err != nil {
			return nil, fmt.Errorf("toolset %s: %w", ts.Name, err)
		}
		m, err := runtools.ParseManifest(ts.Manifest)
		if err != nil {
			return nil, fmt.Errorf("stored manifest of toolset %s: %w", ts.Name, err)
		}
		loaded := runtools.FromManifest(client, m)
		tools, namespaces = append(tools, loaded.Tools...), append(namespaces, loaded.Namespaces...)
	}
	// Runs get the built-in timers unless a toolset named time replaces them (as the workers
	// decide, from the same toolsets).
	if !runtools.OverridesTimers(tools) {
		timers, ns := runtools.Timers(runtools.TimerConfig{Suspend: true})
		tools, namespaces = append(tools, timers...), append(namespaces, ns...)
	}
	box, err := run.NewToolbox(tools, namespaces)
	if err != nil {
		return nil, fmt.Errorf("catalog: %w", err)
	}
	return box, nil
}

func schemaMap(raw json.RawMessage) *map[string]any {
	if len(raw) == 0 {
		return nil
	}
	var m map[string]any
	if json.Unmarshal(raw, &m) != nil || m == nil {
		return nil
	}
	return &m
}
