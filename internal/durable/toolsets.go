package durable

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
)

// Toolset kinds (Toolset.Kind).
const (
	KindHTTP    = "http"    // the tool protocol (docs/tool-protocol.md)
	KindOpenAPI = "openapi" // an OpenAPI document's operations (docs/toolsets.md)
	KindMCP     = "mcp"     // an MCP server's tools (docs/toolsets.md)
)

// Toolset is a registered HTTP toolset (see docs/tool-protocol.md).
type Toolset struct {
	// Name mounts the toolset's tools under tools.<Name>.
	Name string
	// URL serves the manifest (GET) and the calls (POST).
	URL string
	// Secret signs calls (Standard Webhooks headers); empty: unsigned.
	Secret string
	// Kind is how the toolset is reached: "http" (the tool protocol, the default), "openapi"
	// or "mcp" (docs/toolsets.md).
	Kind string
	// Source is the kind's configuration without credentials (openapi: the operations the
	// tools call; mcp: nothing beyond URL); nil for "http".
	Source json.RawMessage
	// Auth is the credentials the worker applies to the kind's requests, decrypted (an
	// AuthConfig as JSON); nil when none. It is never returned by the API.
	Auth json.RawMessage
	// Description is shown in the catalog.
	Description string
	// Manifest is the toolset's manifest: {"tools": [...], "namespaces": [...]}.
	Manifest json.RawMessage
	// CreatedAt is when it was registered.
	CreatedAt time.Time
	// Deleted is set, in a run's toolsets, on a toolset deleted (forcibly) after the run was
	// created: Manifest is the run's version of it and its calls fail (see runengine).
	Deleted bool
}

// toolsetRow is a toolset row whose secret and auth are still sealed (see openToolsets).
type toolsetRow struct {
	Toolset
	plain      *string
	sealed     []byte
	authSealed []byte
}

func scanToolset(r pgx.CollectableRow) (toolsetRow, error) {
	var t toolsetRow
	if err := r.Scan(&t.Name, &t.URL, &t.plain, &t.sealed, &t.Description, (*[]byte)(&t.Manifest), &t.CreatedAt,
		&t.Kind, &t.Source, &t.authSealed); err != nil {
		return toolsetRow{}, err
	}
	return t, nil
}

// scanRunToolset reads a row of ToolsetListOfRun: a toolset row and whether it was deleted.
func scanRunToolset(r pgx.CollectableRow) (toolsetRow, error) {
	var t toolsetRow
	if err := r.Scan(&t.Name, &t.URL, &t.plain, &t.sealed, &t.Description, (*[]byte)(&t.Manifest), &t.CreatedAt,
		&t.Kind, &t.Source, &t.authSealed, &t.Deleted); err != nil {
		return toolsetRow{}, err
	}
	return t, nil
}

// openToolsets decrypts the rows' secrets and auths.
func (s *Store) openToolsets(rows []toolsetRow) ([]Toolset, error) {
	out := make([]Toolset, len(rows))
	for i, r := range rows {
		secret, err := s.openSecret(r.sealed, r.plain, whereToolset)
		if err != nil {
			return nil, fmt.Errorf("toolset %s: %w", r.Name, err)
		}
		auth, err := s.openSecret(r.authSealed, nil, whereToolsetAuth)
		if err != nil {
			return nil, fmt.Errorf("toolset %s: %w", r.Name, err)
		}
		out[i] = r.Toolset
		out[i].Secret = secret
		if auth != "" {
			out[i].Auth = json.RawMessage(auth)
		}
	}
	return out, nil
}

// CreateToolset registers a toolset; ErrToolsetExists when the name is taken.
func (s *Store) CreateToolset(ctx context.Context, t Toolset) (Toolset, error) {
	t.Manifest = storable(t.Manifest)
	if len(t.Manifest) == 0 {
		t.Manifest = json.RawMessage(`{"tools":[]}`)
	}
	if t.Kind == "" {
		t.Kind = "http"
	}
	secret, err := s.seal(t.Secret, whereToolset)
	if err != nil {
		return Toolset{}, fmt.Errorf("create toolset %s: %w", t.Name, err)
	}
	auth, err := s.seal(string(t.Auth), whereToolsetAuth)
	if err != nil {
		return Toolset{}, fmt.Errorf("create toolset %s: auth: %w", t.Name, err)
	}
	err = s.pool.QueryRow(ctx, q("ToolsetInsert"), t.Name, t.URL, secret, t.Description, t.Manifest,
		t.Kind, storable(t.Source), auth).Scan(&t.CreatedAt)
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

// ToolsetUpdate is what UpdateToolset changes; nil fields are kept.
type ToolsetUpdate struct {
	URL, Secret, Description *string
	// Manifest is the toolset's new manifest (required): the caller re-read it.
	Manifest json.RawMessage
	// Source replaces the kind's configuration when not nil.
	Source json.RawMessage
	// Auth replaces the credentials when not nil (pointing to nil or empty: removes them).
	Auth *json.RawMessage
}

// UpdateToolset replaces a toolset's manifest (and URL, secret, description when given) as a
// new version: runs created before keep driving with the manifest they recorded, new runs get
// this one. ErrToolsetNotFound when there is none.
func (s *Store) UpdateToolset(ctx context.Context, name string, u ToolsetUpdate) (Toolset, error) {
	manifest := storable(u.Manifest)
	if len(manifest) == 0 {
		manifest = json.RawMessage(`{"tools":[]}`)
	}
	var sealed []byte
	if u.Secret != nil {
		var err error
		if sealed, err = s.seal(*u.Secret, whereToolset); err != nil {
			return Toolset{}, fmt.Errorf("update toolset %s: %w", name, err)
		}
	}
	var auth []byte
	if u.Auth != nil {
		var err error
		if auth, err = s.seal(string(*u.Auth), whereToolsetAuth); err != nil {
			return Toolset{}, fmt.Errorf("update toolset %s: auth: %w", name, err)
		}
	}
	var out []Toolset
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, q("ToolsetUpdate"), name, u.URL, sealed, u.Description, manifest, u.Secret != nil,
			storable(u.Source), auth, u.Auth != nil)
		if err != nil {
			return err
		}
		t, err := pgx.CollectExactlyOneRow(rows, scanToolset)
		if isNoRows(err) {
			return fmt.Errorf("%w: %s", ErrToolsetNotFound, name)
		}
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, q("ToolsetManifestsPrune"), name); err != nil {
			return fmt.Errorf("prune manifests: %w", err)
		}
		out, err = s.openToolsets([]toolsetRow{t})
		return err
	})
	if err != nil {
		return Toolset{}, fmt.Errorf("update toolset %s: %w", name, unstorable(err))
	}
	return out[0], nil
}

// DeleteToolset removes a toolset; ErrToolsetNotFound when there is none, and ErrToolsetInUse
// (naming the runs) when a run not yet final may call it, unless force. The runs that may call
// a forcibly deleted toolset keep its manifest, and their later calls of it fail, naming it.
func (s *Store) DeleteToolset(ctx context.Context, name string, force bool) error {
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		// The lock orders the check against an update of the toolset.
		if err := tx.QueryRow(ctx, q("ToolsetLock"), name).Scan(new(int)); err != nil {
			if isNoRows(err) {
				return fmt.Errorf("%w: %s", ErrToolsetNotFound, name)
			}
			return err
		}
		if !force {
			rows, err := tx.Query(ctx, q("ToolsetRunsUsing"), name)
			if err != nil {
				return err
			}
			ids, err := pgx.CollectRows(rows, pgx.RowTo[uuid.UUID])
			if err != nil {
				return err
			}
			if len(ids) > 0 {
				names := make([]string, len(ids))
				for i, id := range ids {
					names[i] = id.String()
				}
				return fmt.Errorf("%w: runs not yet finished may call toolset %s (%s); cancel them, wait for them to end, or delete with force=true",
					ErrToolsetInUse, name, strings.Join(names, ", "))
			}
		}
		if _, err := tx.Exec(ctx, q("ToolsetDelete"), name); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, q("ToolsetManifestsPrune"), name)
		return err
	})
	if err != nil {
		if errors.Is(err, ErrToolsetNotFound) || errors.Is(err, ErrToolsetInUse) {
			return err
		}
		return fmt.Errorf("delete toolset %s: %w", name, err)
	}
	return nil
}
