package durable

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// Toolset is a registered HTTP toolset (see docs/tool-protocol.md).
type Toolset struct {
	// Name mounts the toolset's tools under tools.<Name>.
	Name string
	// URL serves the manifest (GET) and the calls (POST).
	URL string
	// Secret signs calls (Standard Webhooks headers); empty: unsigned.
	Secret string
	// Description is shown in the catalog.
	Description string
	// Manifest is the toolset's manifest: {"tools": [...], "namespaces": [...]}.
	Manifest json.RawMessage
	// CreatedAt is when it was registered.
	CreatedAt time.Time
}

func scanToolset(r pgx.CollectableRow) (Toolset, error) {
	var (
		t      Toolset
		secret *string
	)
	if err := r.Scan(&t.Name, &t.URL, &secret, &t.Description, &t.Manifest, &t.CreatedAt); err != nil {
		return Toolset{}, err
	}
	if secret != nil {
		t.Secret = *secret
	}
	return t, nil
}

// CreateToolset registers a toolset; ErrToolsetExists when the name is taken.
func (s *Store) CreateToolset(ctx context.Context, t Toolset) (Toolset, error) {
	t.Manifest = storable(t.Manifest)
	if len(t.Manifest) == 0 {
		t.Manifest = json.RawMessage(`{"tools":[]}`)
	}
	var secret *string
	if t.Secret != "" {
		secret = &t.Secret
	}
	err := s.pool.QueryRow(ctx, q("ToolsetInsert"), t.Name, t.URL, secret, t.Description, t.Manifest).Scan(&t.CreatedAt)
	if isNoRows(err) {
		return Toolset{}, fmt.Errorf("%w: %s", ErrToolsetExists, t.Name)
	}
	if err != nil {
		return Toolset{}, fmt.Errorf("create toolset %s: %w", t.Name, unstorable(err))
	}
	return s.GetToolset(ctx, t.Name)
}

// GetToolset returns a toolset or ErrToolsetNotFound.
func (s *Store) GetToolset(ctx context.Context, name string) (Toolset, error) {
	rows, err := s.pool.Query(ctx, q("ToolsetGet"), name)
	if err != nil {
		return Toolset{}, fmt.Errorf("get toolset %s: %w", name, err)
	}
	t, err := pgx.CollectExactlyOneRow(rows, scanToolset)
	if isNoRows(err) {
		return Toolset{}, fmt.Errorf("%w: %s", ErrToolsetNotFound, name)
	}
	if err != nil {
		return Toolset{}, fmt.Errorf("get toolset %s: %w", name, err)
	}
	return t, nil
}

// ListToolsets returns the toolsets named (all when names is nil), ordered by name.
func (s *Store) ListToolsets(ctx context.Context, names []string) ([]Toolset, error) {
	var (
		rows pgx.Rows
		err  error
	)
	if names == nil {
		rows, err = s.pool.Query(ctx, q("ToolsetList"))
	} else {
		rows, err = s.pool.Query(ctx, q("ToolsetListNamed"), names)
	}
	if err != nil {
		return nil, fmt.Errorf("list toolsets: %w", err)
	}
	out, err := pgx.CollectRows(rows, scanToolset)
	if err != nil {
		return nil, fmt.Errorf("list toolsets: %w", err)
	}
	return out, nil
}

// DeleteToolset removes a toolset; ErrToolsetNotFound when there is none.
func (s *Store) DeleteToolset(ctx context.Context, name string) error {
	tag, err := s.pool.Exec(ctx, q("ToolsetDelete"), name)
	if err != nil {
		return fmt.Errorf("delete toolset %s: %w", name, err)
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("%w: %s", ErrToolsetNotFound, name)
	}
	return nil
}
