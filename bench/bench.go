// Package bench compares codemode's interpreter with goja on a fixed set of JavaScript
// benchmark scripts (scripts/*.js), run in the same process.
//
// Every script defines a function main that returns a value or a promise of one; an engine
// runs the script, calls main, drains the job queue and reports String(value),
// which must equal the value node gives (scripts/expected.json). The module is separate
// from the main module so that the product does not depend on goja.
package bench

import (
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"path"
	"sort"
	"strings"
)

//go:embed scripts/*.js scripts/expected.json
var scriptFS embed.FS

// Script is one benchmark program.
type Script struct {
	// Name is the file name without ".js", for example "fib".
	Name string
	// Source is the program: it defines main.
	Source string
	// Expected is String(value of main) as node computes it.
	Expected string
}

// Scripts returns the benchmark scripts, sorted by name.
func Scripts() ([]Script, error) {
	data, err := scriptFS.ReadFile("scripts/expected.json")
	if err != nil {
		return nil, fmt.Errorf("read expected values: %w", err)
	}
	var expected map[string]string
	if err := json.Unmarshal(data, &expected); err != nil {
		return nil, fmt.Errorf("decode expected values: %w", err)
	}
	entries, err := scriptFS.ReadDir("scripts")
	if err != nil {
		return nil, fmt.Errorf("list scripts: %w", err)
	}
	var scripts []Script
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".js") {
			continue
		}
		name := strings.TrimSuffix(e.Name(), ".js")
		src, err := scriptFS.ReadFile(path.Join("scripts", e.Name()))
		if err != nil {
			return nil, fmt.Errorf("read script %s: %w", name, err)
		}
		want, ok := expected[name]
		if !ok {
			return nil, fmt.Errorf("%w: %s", ErrNoExpectedValue, name)
		}
		scripts = append(scripts, Script{Name: name, Source: string(src), Expected: want})
	}
	sort.Slice(scripts, func(i, j int) bool { return scripts[i].Name < scripts[j].Name })
	return scripts, nil
}

// Engine runs a benchmark script in a fresh VM: it evaluates the script, calls main, runs
// the job queue until main's promise (if any) settles, and returns String(value) (arrays
// of numbers print as "1,2,3"). Implementations are used from one goroutine at a time.
type Engine interface {
	// Name identifies the engine in reports ("ours", "goja").
	Name() string
	// Run runs source; ctx bounds the run.
	Run(ctx context.Context, source string) (string, error)
}
