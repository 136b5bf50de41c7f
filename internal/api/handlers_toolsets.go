package api

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/codemode/codemode/internal/api/gen"
	"github.com/codemode/codemode/internal/durable"
)

// maxManifestBytes bounds a fetched toolset manifest (4 MiB).
const maxManifestBytes = 4 << 20

// CreateToolset implements gen.StrictServerInterface.
func (h *handlers) CreateToolset(ctx context.Context, req gen.CreateToolsetRequestObject) (gen.CreateToolsetResponseObject, error) {
	body := req.Body
	var m manifest
	if body.Tools != nil {
		m.Tools = *body.Tools
		if body.Namespaces != nil {
			m.Namespaces = *body.Namespaces
		}
	} else {
		fetched, err := h.fetchManifest(ctx, body.Url)
		if err != nil {
			return nil, err
		}
		m = fetched
	}
	raw, err := json.Marshal(m)
	if err != nil {
		return nil, fmt.Errorf("encode manifest: %w", err)
	}
	t := durable.Toolset{Name: body.Name, URL: body.Url, Manifest: raw}
	if body.Secret != nil {
		t.Secret = *body.Secret
	}
	if body.Description != nil {
		t.Description = *body.Description
	}
	stored, err := h.store.CreateToolset(ctx, t)
	if err != nil {
		return nil, err
	}
	return gen.CreateToolset201JSONResponse(toToolset(stored)), nil
}

// fetchManifest reads a toolset's manifest with GET url.
func (h *handlers) fetchManifest(ctx context.Context, url string) (manifest, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return manifest{}, fmt.Errorf("%w: %w", ErrManifest, err)
	}
	req.Header.Set("Accept", "application/json")
	resp, err := h.cfg.HTTPClient.Do(req)
	if err != nil {
		return manifest{}, fmt.Errorf("%w: GET %s: %w", ErrManifest, url, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return manifest{}, fmt.Errorf("%w: GET %s: status %d", ErrManifest, url, resp.StatusCode)
	}
	var m manifest
	if err := json.NewDecoder(io.LimitReader(resp.Body, maxManifestBytes)).Decode(&m); err != nil {
		return manifest{}, fmt.Errorf("%w: GET %s: %w", ErrManifest, url, err)
	}
	for _, t := range m.Tools {
		if t.Path == "" {
			return manifest{}, fmt.Errorf("%w: GET %s: a tool has no path", ErrManifest, url)
		}
	}
	if m.Tools == nil {
		m.Tools = []gen.ToolDescriptor{}
	}
	return m, nil
}

// ListToolsets implements gen.StrictServerInterface.
func (h *handlers) ListToolsets(ctx context.Context, _ gen.ListToolsetsRequestObject) (gen.ListToolsetsResponseObject, error) {
	ts, err := h.store.ListToolsets(ctx, nil)
	if err != nil {
		return nil, err
	}
	out := gen.ToolsetList{Toolsets: make([]gen.Toolset, 0, len(ts))}
	for _, t := range ts {
		out.Toolsets = append(out.Toolsets, toToolset(t))
	}
	return gen.ListToolsets200JSONResponse(out), nil
}

// GetToolset implements gen.StrictServerInterface.
func (h *handlers) GetToolset(ctx context.Context, req gen.GetToolsetRequestObject) (gen.GetToolsetResponseObject, error) {
	t, err := h.store.GetToolset(ctx, req.Name)
	if err != nil {
		return nil, err
	}
	return gen.GetToolset200JSONResponse(toToolset(t)), nil
}

// DeleteToolset implements gen.StrictServerInterface.
func (h *handlers) DeleteToolset(ctx context.Context, req gen.DeleteToolsetRequestObject) (gen.DeleteToolsetResponseObject, error) {
	if err := h.store.DeleteToolset(ctx, req.Name); err != nil {
		return nil, err
	}
	return gen.DeleteToolset204Response{}, nil
}

// GetCatalog implements gen.StrictServerInterface: the tools of the toolsets as programs see
// them (tools.<toolset>.<path>). TypeScript signatures come with the runtime's catalog.
func (h *handlers) GetCatalog(ctx context.Context, req gen.GetCatalogRequestObject) (gen.GetCatalogResponseObject, error) {
	ts, err := h.toolsets(ctx, req.Params.Toolsets)
	if err != nil {
		return nil, err
	}
	out := gen.Catalog{Tools: []gen.CatalogTool{}}
	for _, t := range ts {
		var m manifest
		_ = json.Unmarshal(t.Manifest, &m)
		for _, d := range m.Tools {
			ct := gen.CatalogTool{Path: t.Name + "." + d.Path, Toolset: t.Name, Description: d.Description, Input: d.Input, Output: d.Output}
			if d.Durable != nil {
				ct.Durable = *d.Durable
			}
			out.Tools = append(out.Tools, ct)
		}
	}
	return gen.GetCatalog200JSONResponse(out), nil
}

// GetCatalogPrompt implements gen.StrictServerInterface. Rendering the prompt belongs to the
// code-mode runtime's catalog, which this server does not embed yet: it answers 501.
func (h *handlers) GetCatalogPrompt(ctx context.Context, req gen.GetCatalogPromptRequestObject) (gen.GetCatalogPromptResponseObject, error) {
	if _, err := h.toolsets(ctx, req.Params.Toolsets); err != nil {
		return nil, err
	}
	return nil, fmt.Errorf("%w: prompt rendering needs the runtime catalog", ErrNotImplemented)
}

// toolsets resolves a comma-separated filter (nil: all), ErrToolsetNotFound for unknown names.
func (h *handlers) toolsets(ctx context.Context, filter *string) ([]durable.Toolset, error) {
	var names []string
	if filter != nil && *filter != "" {
		for _, n := range strings.Split(*filter, ",") {
			if n = strings.TrimSpace(n); n != "" {
				names = append(names, n)
			}
		}
	}
	ts, err := h.store.ListToolsets(ctx, names)
	if err != nil {
		return nil, err
	}
	if names != nil && len(ts) != len(names) {
		return nil, fmt.Errorf("%w: %s", durable.ErrToolsetNotFound, *filter)
	}
	return ts, nil
}
