package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/codemode/codemode/internal/api/gen"
	"github.com/codemode/codemode/internal/durable"
	"github.com/codemode/codemode/internal/toolset"
	"github.com/codemode/codemode/internal/toolset/openapi"
	"github.com/codemode/codemode/internal/toolset/runtools"
)

// maxDocumentBytes bounds a fetched OpenAPI document (16 MiB: the largest public API
// descriptions are around 10 MB).
const maxDocumentBytes = 16 << 20

// documentTimeout bounds the fetch of an OpenAPI document at registration, like a manifest's.
const documentTimeout = manifestTimeout

// createOpenAPIToolset registers a toolset of kind openapi: its tools are made of the
// document's operations (internal/toolset/openapi) and stored as its manifest, the
// operations they call as its source, the credentials sealed.
func (h *handlers) createOpenAPIToolset(ctx context.Context, body *gen.CreateToolsetJSONRequestBody) (gen.CreateToolsetResponseObject, error) {
	if (body.Url == nil) == (body.Document == nil) {
		return nil, fmt.Errorf("%w: a toolset of kind openapi needs one of url (where to fetch the document) and document (the document itself)", errBadRequest)
	}
	if body.Tools != nil || body.Namespaces != nil || body.Secret != nil {
		return nil, fmt.Errorf("%w: tools, namespaces and secret apply to kind http only", errBadRequest)
	}
	text := []field{{"name", body.Name}}
	var urls []field
	for _, f := range []struct {
		name  string
		value *string
	}{{"url", body.Url}, {"baseUrl", body.BaseUrl}, {"description", body.Description}} {
		if f.value != nil {
			text = append(text, field{f.name, *f.value})
			if f.name != "description" {
				urls = append(urls, field{f.name, *f.value})
			}
		}
	}
	if err := storableText(text...); err != nil {
		return nil, err
	}
	if err := httpURLs(urls...); err != nil {
		return nil, err
	}
	auth, err := authOf(body.Auth)
	if err != nil {
		return nil, err
	}
	var authJSON json.RawMessage
	if auth != nil {
		if authJSON, err = json.Marshal(auth); err != nil {
			return nil, fmt.Errorf("encode auth: %w", err)
		}
	}
	t := durable.Toolset{Name: body.Name, Kind: string(gen.ToolsetCreateKindOpenapi), Auth: authJSON}
	if body.Description != nil {
		t.Description = *body.Description
	}
	if body.Url != nil {
		t.URL = *body.Url
	}
	var baseURL string
	if body.BaseUrl != nil {
		baseURL = *body.BaseUrl
	}
	if t.Manifest, t.Source, err = h.readDocument(ctx, t.URL, body.Document, baseURL); err != nil {
		return nil, err
	}
	if err := mountable(body.Name, t.Manifest, body.Document != nil); err != nil {
		return nil, err
	}
	stored, err := h.store.CreateToolset(ctx, t)
	if err != nil {
		return nil, err
	}
	return gen.CreateToolset201JSONResponse(toToolset(stored)), nil
}

// updateOpenAPIToolset re-reads an OpenAPI toolset's document from the new or current url and
// stores its tools as a new version.
func (h *handlers) updateOpenAPIToolset(ctx context.Context, current durable.Toolset, body *gen.UpdateToolsetJSONRequestBody,
	auth *json.RawMessage) (gen.UpdateToolsetResponseObject, error) {
	if body.Tools != nil || body.Namespaces != nil || body.Secret != nil {
		return nil, fmt.Errorf("%w: tools, namespaces and secret apply to kind http only", errBadRequest)
	}
	url := current.URL
	if body.Url != nil {
		url = *body.Url
	}
	var src openapi.Source
	if len(current.Source) > 0 {
		if err := json.Unmarshal(current.Source, &src); err != nil {
			return nil, fmt.Errorf("source of toolset %s: %w", current.Name, err)
		}
	}
	server := src.Server
	if body.BaseUrl != nil {
		server = *body.BaseUrl
	}
	var manifest, source json.RawMessage
	if url != "" {
		var err error
		if manifest, source, err = h.readDocument(ctx, url, nil, server); err != nil {
			return nil, err
		}
	} else {
		// Registered with an inline document, which is not kept: its tools stay as they are,
		// and a new server replaces the one they are sent to. With nothing else to change,
		// there is nothing to read again.
		if auth == nil && body.BaseUrl == nil && body.Description == nil {
			return nil, fmt.Errorf("%w: toolset %s was registered with an inline document, which is not kept: give a url to read a document from, or change auth, baseUrl or description, or register it again", errBadRequest, current.Name)
		}
		manifest, source = current.Manifest, current.Source
		if body.BaseUrl != nil {
			src.BaseURL, src.Server = strings.TrimSuffix(server, "/"), server
			encoded, err := json.Marshal(src)
			if err != nil {
				return nil, fmt.Errorf("encode source: %w", err)
			}
			source = encoded
		}
	}
	if err := mountable(current.Name, manifest, false); err != nil {
		return nil, err
	}
	updated, err := h.store.UpdateToolset(ctx, current.Name, durable.ToolsetUpdate{
		URL: body.Url, Description: body.Description, Manifest: manifest, Source: source, Auth: auth,
	})
	if err != nil {
		return nil, err
	}
	return gen.UpdateToolset200JSONResponse(toToolset(updated)), nil
}

// readDocument reads an OpenAPI document, inline or fetched from url (obeying the egress
// policy, with fetchManifest's one message for every way the fetch can fail), and returns
// its tools as a manifest and the operations they call as a source. A document that cannot
// be made into tools is a 400 when inline, a 502 when fetched (like a toolset's manifest).
func (h *handlers) readDocument(ctx context.Context, url string, inline *map[string]any, baseURL string) (json.RawMessage, json.RawMessage, error) {
	var (
		data []byte
		bad  = errBadRequest
		err  error
	)
	if inline != nil {
		if data, err = json.Marshal(*inline); err != nil {
			return nil, nil, fmt.Errorf("%w: document: %w", errBadRequest, err)
		}
	} else {
		if data, err = h.fetchDocument(ctx, url); err != nil {
			return nil, nil, err
		}
		bad = ErrManifest
	}
	spec, err := openapi.Parse(data, openapi.Options{DocumentURL: url, BaseURL: baseURL})
	if err == nil {
		err = runtools.CheckNew(spec.Manifest)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("%w: document: %w", bad, err)
	}
	manifest, err := json.Marshal(spec.Manifest)
	if err != nil {
		return nil, nil, fmt.Errorf("encode manifest: %w", err)
	}
	source, err := json.Marshal(spec.Source)
	if err != nil {
		return nil, nil, fmt.Errorf("encode source: %w", err)
	}
	return manifest, source, nil
}

// fetchDocument reads an OpenAPI document with GET url, in one attempt, over the API's HTTP
// client (the egress policy).
func (h *handlers) fetchDocument(ctx context.Context, url string) ([]byte, error) {
	unreachable := func(detail error) error {
		h.cfg.Logger.WarnContext(ctx, "OpenAPI document fetch failed", "url", url, "error", detail)
		return fmt.Errorf("%w: GET %s failed: the document could not be reached or was not answered with 200, or its address is not allowed by the egress policy (the server's log has the details)", ErrManifest, url)
	}
	client, err := toolset.New(toolset.Config{URL: url, HTTPClient: h.cfg.HTTPClient, Timeout: documentTimeout,
		Retries: -1, MaxResponseBytes: maxDocumentBytes})
	if err != nil {
		return nil, fmt.Errorf("%w: %w", errBadRequest, err)
	}
	status, data, err := client.Send(ctx, toolset.Request{Method: http.MethodGet, URL: url, Label: "GET " + url,
		Header: http.Header{"Accept": {"application/json, application/yaml;q=0.9, */*;q=0.5"}}})
	if errors.Is(err, toolset.ErrResponseTooLarge) {
		return nil, fmt.Errorf("%w: GET %s: the document is larger than %d bytes", ErrManifest, url, maxDocumentBytes)
	}
	if err != nil {
		return nil, unreachable(err)
	}
	if status != http.StatusOK {
		return nil, unreachable(&toolset.StatusError{Status: status})
	}
	return data, nil
}
