package bench

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// The library set: published bundles of popular pure-JavaScript npm packages (libs/package.json,
// pinned by libs/package-lock.json and installed by libs/fetch.sh) each run with a workload
// (libs/workloads/NAME.js) on committed inputs (libs/inputs). The list is libs/libs.json.

// LibsDir is the library set's directory relative to the bench module's root.
const LibsDir = "libs"

// ErrLibsNotFetched means node_modules is missing: run libs/fetch.sh.
var ErrLibsNotFetched = errors.New("library files are not installed: run bench/libs/fetch.sh")

// Library is one entry of libs/libs.json.
type Library struct {
	// Name names the workload (workloads/NAME.js) and the expected output (expected/NAME.json).
	Name string `json:"name"`
	// Package is the npm package; Version is filled in from its package.json.
	Package string `json:"package"`
	Version string `json:"-"`
	// File is the bundle the program includes, relative to the package's directory.
	File string `json:"file"`
	// Inputs are files under inputs/ that the workload reads as INPUT[name].
	Inputs []string `json:"inputs"`
	// Prelude is extra text after the module prelude, such as `var self = globalThis;` for
	// bundles that find the global object through self instead of Function('return this').
	Prelude string `json:"prelude,omitempty"`
	// Iterations is how many times every engine calls main in a timed run.
	Iterations int `json:"iterations"`
	// Needs names a feature codemode lacks that the library is known to need ("typed
	// arrays"); the library stays in the set and its failure is reported with this note.
	Needs string `json:"needs,omitempty"`
}

// LibrarySet is the library set loaded from a directory.
type LibrarySet struct {
	// Dir is the set's directory (libs).
	Dir       string
	Libraries []Library
}

// LoadLibraries reads dir/libs.json. It does not need node_modules.
func LoadLibraries(dir string) (*LibrarySet, error) {
	data, err := os.ReadFile(filepath.Join(dir, "libs.json"))
	if err != nil {
		return nil, fmt.Errorf("read library list: %w", err)
	}
	var libs []Library
	if err := json.Unmarshal(data, &libs); err != nil {
		return nil, fmt.Errorf("decode library list: %w", err)
	}
	return &LibrarySet{Dir: dir, Libraries: libs}, nil
}

// Fetched reports whether node_modules is installed.
func (s *LibrarySet) Fetched() bool {
	_, err := os.Stat(filepath.Join(s.Dir, "node_modules", ".package-lock.json"))
	return err == nil
}

// Program is a library's benchmark program: the prelude, the library file, the inputs and the
// workload, which defines main. Every engine runs this same text, wrapped by its driver.
type Program struct {
	Library
	// Text is the program's source text.
	Text string
	// Expected is node's JSON.stringify(main(), null, 1), or "" when expected/NAME.json is
	// missing.
	Expected string
}

// Prelude gives the bundles a CommonJS module object to export into.
const Prelude = "var module = { exports: {} }, exports = module.exports;\n"

// Program assembles lib's program from the installed bundle and the committed files.
func (s *LibrarySet) Program(lib Library) (Program, error) {
	if !s.Fetched() {
		return Program{}, ErrLibsNotFetched
	}
	pkgDir := filepath.Join(s.Dir, "node_modules", lib.Package)
	bundle, err := os.ReadFile(filepath.Join(pkgDir, lib.File))
	if err != nil {
		return Program{}, fmt.Errorf("%s: read bundle: %w", lib.Name, err)
	}
	var meta struct {
		Version string `json:"version"`
	}
	if data, err := os.ReadFile(filepath.Join(pkgDir, "package.json")); err != nil {
		return Program{}, fmt.Errorf("%s: read package.json: %w", lib.Name, err)
	} else if err := json.Unmarshal(data, &meta); err != nil {
		return Program{}, fmt.Errorf("%s: decode package.json: %w", lib.Name, err)
	}
	lib.Version = meta.Version
	inputs := map[string]string{}
	for _, name := range lib.Inputs {
		data, err := os.ReadFile(filepath.Join(s.Dir, "inputs", name))
		if err != nil {
			return Program{}, fmt.Errorf("%s: read input: %w", lib.Name, err)
		}
		inputs[name] = string(data)
	}
	inputJSON, err := json.Marshal(inputs)
	if err != nil {
		return Program{}, fmt.Errorf("%s: encode inputs: %w", lib.Name, err)
	}
	workload, err := os.ReadFile(filepath.Join(s.Dir, "workloads", lib.Name+".js"))
	if err != nil {
		return Program{}, fmt.Errorf("%s: read workload: %w", lib.Name, err)
	}
	var b strings.Builder
	b.WriteString(Prelude)
	if lib.Prelude != "" {
		b.WriteString(lib.Prelude + "\n")
	}
	b.Write(bundle)
	b.WriteString("\n;var INPUT = ")
	b.Write(inputJSON)
	b.WriteString(";\n")
	b.Write(workload)
	p := Program{Library: lib, Text: b.String()}
	if data, err := os.ReadFile(s.ExpectedPath(lib.Name)); err == nil {
		p.Expected = strings.TrimSuffix(string(data), "\n")
	} else if !errors.Is(err, os.ErrNotExist) {
		return Program{}, fmt.Errorf("%s: read expected output: %w", lib.Name, err)
	}
	return p, nil
}

// ExpectedPath is the file holding node's output for the library name.
func (s *LibrarySet) ExpectedPath(name string) string {
	return filepath.Join(s.Dir, "expected", name+".json")
}

// ErrNoExpectedOutput means a library has no expected/NAME.json: run libs/regen.sh.
var ErrNoExpectedOutput = errors.New("no expected output: run bench/libs/regen.sh")

// CheckLib runs a library program once on an engine (main called once) and verifies that its
// output is node's.
func CheckLib(ctx context.Context, e LibEngine, p Program) error {
	if p.Expected == "" {
		return fmt.Errorf("%s: %w", p.Name, ErrNoExpectedOutput)
	}
	r, err := e.RunLib(ctx, p.Text, 0)
	if err != nil {
		if p.Needs != "" {
			return fmt.Errorf("%s on %s (needs %s): %w", p.Name, e.Name(), p.Needs, err)
		}
		return fmt.Errorf("%s on %s: %w", p.Name, e.Name(), err)
	}
	if r.Output != p.Expected {
		return fmt.Errorf("%s on %s: %w: %s", p.Name, e.Name(), ErrWrongValue, firstDifference(r.Output, p.Expected))
	}
	return nil
}

// firstDifference describes where got departs from want.
func firstDifference(got, want string) string {
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	from := max(0, i-60)
	return fmt.Sprintf("at byte %d: got %q, want %q", i, clip(got, from, i+60), clip(want, from, i+60))
}

func clip(s string, from, to int) string {
	return s[min(from, len(s)):min(to, len(s))]
}
