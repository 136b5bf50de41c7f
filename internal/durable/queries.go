package durable

import (
	"embed"
	"fmt"
	"io/fs"
	"strings"
)

// The store's SQL lives in queries/*.sql, one file per table, each query introduced by a
// "-- name: NounVerb" line. They are loaded once into a map; q panics on an unknown name, which
// every test that runs the calling code catches.
//
// A statement that finds one run by id and checks its status writes the check as
// `(status = 'running') IS TRUE`, which no index on status can serve: the planner then always
// takes the primary key, also on a young table without statistics, where an index on status
// looks as cheap and would be scanned through every running run (TestRunLookupsUseThePrimaryKey).
//
//go:embed queries/*.sql
var queryFS embed.FS

var queries = mustLoadQueries()

func mustLoadQueries() map[string]string {
	m, err := loadQueries(queryFS)
	if err != nil {
		panic(err)
	}
	return m
}

func loadQueries(fsys fs.FS) (map[string]string, error) {
	files, err := fs.Glob(fsys, "queries/*.sql")
	if err != nil {
		return nil, fmt.Errorf("list queries: %w", err)
	}
	out := map[string]string{}
	for _, file := range files {
		data, err := fs.ReadFile(fsys, file)
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", file, err)
		}
		name := ""
		var body strings.Builder
		flush := func() error {
			if name == "" {
				return nil
			}
			if _, dup := out[name]; dup {
				return fmt.Errorf("%s: query %s defined twice", file, name)
			}
			out[name] = strings.TrimSpace(body.String())
			body.Reset()
			return nil
		}
		for line := range strings.Lines(string(data)) {
			if rest, ok := strings.CutPrefix(line, "-- name:"); ok {
				if err := flush(); err != nil {
					return nil, err
				}
				name = strings.TrimSpace(rest)
				continue
			}
			if name != "" {
				body.WriteString(line)
			}
		}
		if err := flush(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// q returns the SQL of a named query.
func q(name string) string {
	s, ok := queries[name]
	if !ok {
		panic("durable: unknown query " + name)
	}
	return s
}
