package main

import (
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"
)

// Flags of a test262 file that change how it is run.
const (
	flagAsync           = "async"
	flagOnlyStrict      = "onlyStrict"
	flagNoStrict        = "noStrict"
	flagRaw             = "raw"
	flagModule          = "module"
	flagCanBlockIsTrue  = "CanBlockIsTrue"
	flagCanBlockIsFalse = "CanBlockIsFalse"
)

// Phases of a negative test.
const (
	phaseParse      = "parse"
	phaseResolution = "resolution"
	phaseRuntime    = "runtime"
)

// negative is the expectation of a test that must fail: the phase at which the error
// happens and the name of its constructor (for example "SyntaxError").
type negative struct {
	Phase string `yaml:"phase"`
	Type  string `yaml:"type"`
}

// metadata is the YAML frontmatter of a test262 file (between "/*---" and "---*/").
type metadata struct {
	Includes []string  `yaml:"includes"`
	Flags    []string  `yaml:"flags"`
	Features []string  `yaml:"features"`
	Negative *negative `yaml:"negative"`
}

// hasFlag reports whether the file carries the given flag.
func (m *metadata) hasFlag(flag string) bool {
	for _, f := range m.Flags {
		if f == flag {
			return true
		}
	}
	return false
}

const (
	frontmatterStart = "/*---"
	frontmatterEnd   = "---*/"
)

// parseMetadata extracts and decodes the frontmatter of a test262 source file.
func parseMetadata(source string) (*metadata, error) {
	start := strings.Index(source, frontmatterStart)
	if start < 0 {
		return nil, ErrNoFrontmatter
	}
	rest := source[start+len(frontmatterStart):]
	end := strings.Index(rest, frontmatterEnd)
	if end < 0 {
		return nil, fmt.Errorf("%w: no closing %q", ErrNoFrontmatter, frontmatterEnd)
	}
	var md metadata
	if err := yaml.Unmarshal([]byte(rest[:end]), &md); err != nil {
		return nil, fmt.Errorf("decode frontmatter: %w", err)
	}
	if md.Negative != nil {
		switch md.Negative.Phase {
		case phaseParse, phaseResolution, phaseRuntime:
		default:
			return nil, fmt.Errorf("%w: %q", ErrBadNegativePhase, md.Negative.Phase)
		}
		if md.Negative.Type == "" {
			return nil, fmt.Errorf("%w: negative test without a type", ErrBadNegativePhase)
		}
	}
	return &md, nil
}
