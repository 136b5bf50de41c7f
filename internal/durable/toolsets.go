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

// scanToolset reads a toolset row; its secret is still sealed (see openToolsets).
type toolsetRow struct {
	Toolset
	plain  *string
	sealed []byte
}

func scanToolset(r pgx.CollectableRow) (toolsetRow, error) {
	var t toolsetRow
	if err := r.Scan(&t.Name, &t.URL, &t.plain, &t.sealed, &t.Description, &t.Manifest, &t.CreatedAt); err != nil {
		return toolsetRow{}, err
	}
	return t, nil
}

// openToolsets decrypts the rows' secrets.
func (s *Store) openToolsets(rows []toolsetRow) ([]Toolset, error) {
	out := make([]Toolset, len(rows))
	for i, r := range rows {
		secret, err := s.openSecret(r.sealed, r.plain, whereToolset)
		if err != nil {
			return nil, fmt.Errorf("toolset %s: %w", r.Name, err)
		}
		out[i] = r.Toolset
		out[i].Secret = secret
	}
	return out, nil
}

// CreateToolset registers a toolset; ErrToolsetExists when the name is taken.
func (s *Store) CreateToolset(ctx context.Context, t Toolset) (Toolset, error) {
	t.Manifest = storable(t.Manifest)
	if len(t.Manifest) == 0 {
		t.Manifest = json.RawMessage(`{"tools":[]}`)
	}
	secret, err := s.seal(t.Secret, whereToolset)
	if err != nil {
		return Toolset{}, fmt.Errorf("create toolset %s: %w", t.Name, err)
	}
	err = s.pool.QueryRow(ctx, q("ToolsetInsert"), t.Name, t.URL, secret, t.Description, t.Manifest).Scan(&t.CreatedAt)
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
	out, err := s.openToolsets([]toolsetRow{t})
	if err != nil {
		return Toolset{}, err
	}
	return out[0], nil
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
	found, err := pgx.CollectRows(rows, scanToolset)
	if err != nil {
		return nil, fmt.Errorf("list toolsets: %w", err)
	}
	return s.openToolsets(found)
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
