package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/codemode/codemode/internal/api/gen"
	"github.com/codemode/codemode/internal/durable"
	"github.com/codemode/codemode/internal/egress"
	"github.com/codemode/codemode/internal/run"
	"github.com/codemode/codemode/internal/toolset"
	"github.com/codemode/codemode/internal/toolset/mcp"
	"github.com/codemode/codemode/internal/toolset/runtools"
)

// maxManifestBytes bounds a fetched toolset manifest (4 MiB).
const maxManifestBytes = 4 << 20

// manifestTimeout bounds the fetch of a toolset's manifest at registration.
const manifestTimeout = 10 * time.Second

// CreateToolset implements gen.StrictServerInterface.
func (h *handlers) CreateToolset(ctx context.Context, req gen.CreateToolsetRequestObject) (gen.CreateToolsetResponseObject, error) {
	body := req.Body
	kind := durable.KindHTTP
	if body.Kind != nil {
		kind = string(*body.Kind)
	}
	if err := usableName(body.Name); err != nil {
		return nil, err
	}
	if kind == durable.KindOpenAPI {
		return h.createOpenAPIToolset(ctx, body)
	}
	if body.Url == nil {
		return nil, fmt.Errorf("%w: url is required for a toolset of kind %s", errBadRequest, kind)
	}
	url := *body.Url
	if kind == durable.KindHTTP && body.Auth != nil {
		return nil, fmt.Errorf("%w: auth is for toolsets of kind openapi or mcp; an http toolset signs its calls with secret", errBadRequest)
	}
	if kind != durable.KindOpenAPI && (body.Document != nil || body.BaseUrl != nil) {
		return nil, fmt.Errorf("%w: document and baseUrl are for toolsets of kind openapi", errBadRequest)
	}
	if kind == durable.KindMCP && (body.Tools != nil || body.Namespaces != nil || body.Secret != nil) {
		return nil, fmt.Errorf("%w: an mcp toolset's tools are listed from its server; tools, namespaces and secret are for kind http", errBadRequest)
	}
	text := []field{{"name", body.Name}, {"url", url}}
	if body.Secret != nil {
		text = append(text, field{"secret", *body.Secret})
	}
	if body.Description != nil {
		text = append(text, field{"description", *body.Description})
	}
	if err := storableText(text...); err != nil {
		return nil, err
	}
	if err := httpURLs(field{"url", url}); err != nil {
		return nil, err
	}
	if body.Secret != nil {
		if err := usableSecret("secret", *body.Secret); err != nil {
			return nil, err
		}
	}
	t := durable.Toolset{Name: body.Name, URL: url, Kind: kind}
	if body.Secret != nil {
		t.Secret = *body.Secret
	}
	if body.Description != nil {
		t.Description = *body.Description
	}
	switch {
	case kind == durable.KindMCP:
		auth, err := authOf(body.Auth)
		if err != nil {
			return nil, err
		}
		if t.Manifest, err = h.listMCP(ctx, url, auth); err != nil {
			return nil, err
		}
		if auth != nil {
			if t.Auth, err = json.Marshal(auth); err != nil {
				return nil, fmt.Errorf("encode auth: %w", err)
			}
		}
	case body.Tools != nil:
		m := manifest{Tools: *body.Tools}
		if body.Namespaces != nil {
			m.Namespaces = *body.Namespaces
		}
		encoded, err := json.Marshal(m)
		if err != nil {
			return nil, fmt.Errorf("encode manifest: %w", err)
		}
		if _, err := runtools.ParseNewManifest(encoded); err != nil {
			return nil, fmt.Errorf("%w: tools: %w", errBadRequest, err)
		}
		t.Manifest = encoded
	default:
		fetched, err := h.fetchManifest(ctx, url)
		if err != nil {
			return nil, err
		}
		t.Manifest = fetched
	}
	if err := mountable(body.Name, t.Manifest, body.Tools != nil); err != nil {
		return nil, err
	}
	if err := h.extensionsFree(ctx, body.Name, t.Manifest); err != nil {
		return nil, err
	}
	stored, err := h.store.CreateToolset(ctx, t)
	if err != nil {
		return nil, err
	}
	return gen.CreateToolset201JSONResponse(toToolset(stored)), nil
}

// authOf checks a toolset's auth; nil for none.
func authOf(a *gen.ToolsetAuth) (*toolset.AuthConfig, error) {
	if a == nil {
		return nil, nil
	}
	out := &toolset.AuthConfig{Type: string(a.Type)}
	for _, f := range []struct {
		dst *string
		src *string
	}{{&out.Name, a.Name}, {&out.Value, a.Value}, {&out.Token, a.Token}, {&out.Username, a.Username}, {&out.Password, a.Password}} {
		if f.src != nil {
			*f.dst = *f.src
		}
	}
	if a.In != nil {
		out.In = string(*a.In)
	}
	if err := out.Validate(); err != nil {
		return nil, fmt.Errorf("%w: auth: %w", errBadRequest, err)
	}
	if err := storableText(field{"auth", out.Name + out.Value + out.Token + out.Username + out.Password}); err != nil {
		return nil, err
	}
	return out, nil
}

// listMCP lists an MCP server's tools as an mcp toolset's manifest (internal/toolset/mcp),
// over the API's HTTP client (the egress policy). As for fetchManifest, a server that cannot
// be reached is not described to the client, only in the log; a listing the runtime refuses
// is.
func (h *handlers) listMCP(ctx context.Context, url string, auth *toolset.AuthConfig) ([]byte, error) {
	raw, err := mcp.List(ctx, mcp.Config{URL: url, Auth: auth, HTTPClient: h.cfg.HTTPClient, Timeout: manifestTimeout})
	if err != nil {
		h.cfg.Logger.WarnContext(ctx, "MCP toolset listing failed", "url", url, "error", err)
		return nil, fmt.Errorf("%w: listing the tools of the MCP server %s failed: it could not be reached, refused the credentials or answered an error, or its address is not allowed by the egress policy (the server's log has the details)", ErrManifest, url)
	}
	_, err = runtools.ParseNewManifest(raw)
	if err == nil && len(raw) > maxManifestBytes {
		err = fmt.Errorf("the tools' listing is %d bytes, over %d", len(raw), maxManifestBytes)
	}
	if err != nil {
		return nil, fmt.Errorf("%w: MCP server %s: %w", ErrManifest, url, err)
	}
	return raw, nil
}

// fetchManifest reads a toolset's manifest with GET url and checks it (paths valid and unique,
// schemas compile). The request obeys the egress policy. Whether the address was refused, the
// connection failed or timed out, or the toolset answered an error, the client gets the same
// message, so that registration cannot be used to probe which ports are open where; the
// details go to the log. A manifest that was read but is invalid is described.
func (h *handlers) fetchManifest(ctx context.Context, url string) ([]byte, error) {
	unreachable := func(detail error) error {
		h.cfg.Logger.WarnContext(ctx, "toolset manifest fetch failed", "url", url, "error", detail)
		return fmt.Errorf("%w: GET %s failed: the toolset could not be reached or did not answer 200, or its address is not allowed by the egress policy (the server's log has the details)", ErrManifest, url)
	}
	// One attempt, read by the protocol's client (internal/toolset) over the API's HTTP client.
	client, err := toolset.New(toolset.Config{URL: url, HTTPClient: h.cfg.HTTPClient, Timeout: manifestTimeout,
		Retries: -1, MaxResponseBytes: maxManifestBytes})
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrManifest, err)
	}
	data, m, err := client.ManifestData(ctx)
	var status *toolset.StatusError
	// A refused address reads as any other failure to reach the toolset, so that registration
	// cannot probe which addresses are refused.
	if errors.Is(err, toolset.ErrUnavailable) || errors.As(err, &status) || egress.IsDenied(err) {
		return nil, unreachable(err)
	}
	if err == nil {
		err = runtools.CheckNew(m)
	}
	if err != nil {
		return nil, fmt.Errorf("%w: GET %s: %w", ErrManifest, url, err)
	}
	return data, nil
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
	if err := h.store.DeleteToolset(ctx, req.Name, req.Params.Force != nil && *req.Params.Force); err != nil {
		return nil, err
	}
	return gen.DeleteToolset204Response{}, nil
}

// UpdateToolset implements gen.StrictServerInterface: the manifest is read again (from the
// body's tools, or else fetched from the new or current url) and stored as a new version.
func (h *handlers) UpdateToolset(ctx context.Context, req gen.UpdateToolsetRequestObject) (gen.UpdateToolsetResponseObject, error) {
	body := req.Body
	var text, urls []field
	if body.Url != nil {
		text = append(text, field{"url", *body.Url})
		urls = append(urls, field{"url", *body.Url})
	}
	if body.BaseUrl != nil {
		text = append(text, field{"baseUrl", *body.BaseUrl})
		urls = append(urls, field{"baseUrl", *body.BaseUrl})
	}
	if body.Secret != nil {
		text = append(text, field{"secret", *body.Secret})
	}
	if body.Description != nil {
		text = append(text, field{"description", *body.Description})
	}
	if err := storableText(text...); err != nil {
		return nil, err
	}
	if err := httpURLs(urls...); err != nil {
		return nil, err
	}
	if body.Secret != nil {
		if err := usableSecret("secret", *body.Secret); err != nil {
			return nil, err
		}
	}
	newAuth, err := authOf(body.Auth)
	if err != nil {
		return nil, err
	}
	var authUpdate *json.RawMessage // the credentials to store; nil: kept
	if newAuth != nil {
		encoded, err := json.Marshal(newAuth)
		if err != nil {
			return nil, fmt.Errorf("encode auth: %w", err)
		}
		authUpdate = (*json.RawMessage)(&encoded)
	}
	current, err := h.store.GetToolset(ctx, req.Name)
	if err != nil {
		return nil, err
	}
	if newAuth != nil && current.Kind != durable.KindOpenAPI && current.Kind != durable.KindMCP {
		return nil, fmt.Errorf("%w: auth is for toolsets of kind openapi or mcp; an http toolset signs its calls with secret", errBadRequest)
	}
	if body.BaseUrl != nil && current.Kind != durable.KindOpenAPI {
		return nil, fmt.Errorf("%w: baseUrl is for toolsets of kind openapi", errBadRequest)
	}
	if current.Kind == durable.KindOpenAPI {
		return h.updateOpenAPIToolset(ctx, current, body, authUpdate)
	}
	url := current.URL
	if body.Url != nil {
		url = *body.Url
	}
	var raw []byte
	if current.Kind == durable.KindMCP {
		if body.Tools != nil || body.Namespaces != nil || body.Secret != nil {
			return nil, fmt.Errorf("%w: an mcp toolset's tools are listed from its server; tools, namespaces and secret are for kind http", errBadRequest)
		}
		auth := newAuth
		if auth == nil {
			if auth, err = toolset.ParseAuth(current.Auth); err != nil {
				return nil, err
			}
		}
		if raw, err = h.listMCP(ctx, url, auth); err != nil {
			return nil, err
		}
	} else if current.Kind != durable.KindHTTP && current.Kind != "" {
		return nil, fmt.Errorf("%w: toolsets of kind %s cannot be updated by this server", errBadRequest, current.Kind)
	} else if body.Tools != nil {
		m := manifest{Tools: *body.Tools}
		if body.Namespaces != nil {
			m.Namespaces = *body.Namespaces
		}
		if raw, err = json.Marshal(m); err != nil {
			return nil, fmt.Errorf("encode manifest: %w", err)
		}
		if _, err := runtools.ParseNewManifest(raw); err != nil {
			return nil, fmt.Errorf("%w: tools: %w", errBadRequest, err)
		}
	} else if raw, err = h.fetchManifest(ctx, url); err != nil {
		return nil, err
	}
	if err := mountable(req.Name, raw, body.Tools != nil); err != nil {
		return nil, err
	}
	if err := h.extensionsFree(ctx, req.Name, raw); err != nil {
		return nil, err
	}
	updated, err := h.store.UpdateToolset(ctx, req.Name, durable.ToolsetUpdate{
		URL: body.Url, Secret: body.Secret, Description: body.Description, Manifest: raw, Auth: authUpdate,
	})
	if err != nil {
		return nil, err
	}
	return gen.UpdateToolset200JSONResponse(toToolset(updated)), nil
}

// toolsets resolves a comma-separated filter (nil: all), ErrToolsetNotFound for unknown names.
func (h *handlers) toolsets(ctx context.Context, filter *string) ([]durable.Toolset, error) {
	var names []string
	if filter != nil {
		names = nameList(*filter)
	}
	ts, err := h.store.ListToolsets(ctx, names)
	if err != nil {
		return nil, err
	}
	if names != nil && len(ts) != len(names) {
		var missing []string
		for _, n := range names {
			if !slices.ContainsFunc(ts, func(t durable.Toolset) bool { return t.Name == n }) {
				missing = append(missing, n)
			}
		}
		return nil, fmt.Errorf("%w: %s", durable.ErrToolsetNotFound, strings.Join(missing, ","))
	}
	return ts, nil
}

// usableName refuses (400) a toolset name the runtime cannot mount its tools under: the
// pattern of the spec leaves only __proto__.
func usableName(name string) error {
	if err := run.ValidatePath(name); err != nil {
		return fmt.Errorf("%w: name %q cannot be a toolset's name: %w", errBadRequest, name, err)
	}
	return nil
}

// mountable refuses a manifest whose tools the runtime would refuse once mounted under the
// toolset's name as runs and the catalog see them (tools.<name>.<path>), such as a path that
// is too long with the name in front. Stored anyway, such a toolset would fail the catalog
// and every run that may use it, which is every run naming no toolsets. An inline manifest
// (fromBody) is the request's fault (400), a fetched one the toolset's (502).
func mountable(name string, manifestJSON []byte, fromBody bool) error {
	err := func() error {
		client, err := toolset.New(toolset.Config{URL: "http://catalog.invalid/", Name: name})
		if err != nil {
			return err
		}
		m, err := runtools.ParseNewManifest(manifestJSON)
		if err != nil {
			return err
		}
		loaded := runtools.FromManifest(client, m)
		_, err = run.NewToolbox(loaded.Tools, loaded.Namespaces)
		return err
	}()
	switch {
	case err == nil:
		return nil
	case fromBody:
		return fmt.Errorf("%w: tools under tools.%s: %w", errBadRequest, name, err)
	default:
		return fmt.Errorf("%w: tools under tools.%s: %w", ErrManifest, name, err)
	}
}

// extensionsFree refuses (409) a manifest of toolset name declaring an extension that another
// registered toolset declares: extensions are globals, so a run that may use both toolsets
// (every run naming none) could not be given both, and would fail.
func (h *handlers) extensionsFree(ctx context.Context, name string, manifestJSON []byte) error {
	m, err := toolset.DecodeManifest(manifestJSON)
	if err != nil || len(m.Extensions) == 0 {
		return nil // mountable reported a manifest that does not decode
	}
	others, err := h.store.ListToolsets(ctx, nil)
	if err != nil {
		return err
	}
	for _, other := range others {
		if other.Name == name || len(other.Manifest) == 0 {
			continue
		}
		om, err := toolset.DecodeManifest(other.Manifest)
		if err != nil {
			continue
		}
		for _, x := range m.Extensions {
			for _, y := range om.Extensions {
				if x.Name == y.Name {
					return fmt.Errorf("%w: extension %q is declared by toolset %q too; extensions are globals, so a run could not use both toolsets", errConflict, x.Name, other.Name)
				}
			}
		}
	}
	return nil
}

// maxToolsetNames bounds the toolsets a run or schedule names (api/openapi.yaml's maxItems of
// RunCreate.toolsets and ScheduleCreate.toolsets; MCP's execute, which bypasses the spec's
// validation, is held to it by CreateRun).
const maxToolsetNames = 100

// fewToolsets refuses (400) a list of more than maxToolsetNames toolset names.
func fewToolsets(names *[]string) error {
	if names != nil && len(*names) > maxToolsetNames {
		return fmt.Errorf("%w: toolsets: %d names, more than %d", errBadRequest, len(*names), maxToolsetNames)
	}
	return nil
}

// nameList reads a comma-separated list of toolset names ("ops, deploy" is ops and deploy):
// trimmed, empty ones dropped, a name given twice kept once. nil when it names none.
func nameList(list string) []string {
	var names []string
	for _, n := range strings.Split(list, ",") {
		if n = strings.TrimSpace(n); n != "" && !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	return names
}
