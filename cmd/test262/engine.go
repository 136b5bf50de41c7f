package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// engineJob is one program for an engine to run: the complete script (harness, includes
// and test body, with the "use strict" directive already in place when strict).
type engineJob struct {
	// Source is the whole script.
	Source string
	// Async is set for tests that signal completion through $DONE; the engine must drain
	// the job queue before returning the printed lines.
	Async bool
	// MaxSteps bounds the interpreter's work; 0 means no bound.
	MaxSteps int64
}

// jsError is an error as JavaScript sees it: the constructor name and the message.
type jsError struct {
	Name    string
	Message string
}

func (e *jsError) String() string {
	if e.Message == "" {
		return e.Name
	}
	return e.Name + ": " + e.Message
}

// engineResult is what running an engineJob produced. At most one of CompileError,
// Thrown and Err is set.
type engineResult struct {
	// CompileError is set when the script did not compile. Its Name is the diagnostic kind
	// (for example "ParseError" or "UnsupportedSyntax").
	CompileError *jsError
	// Thrown is the uncaught exception the script ended with.
	Thrown *jsError
	// Err is a failure of the run itself: the step budget or the time ran out, a limit
	// ended the run, or the engine failed internally.
	Err error
	// Prints are the lines passed to the host print function, in order.
	Prints []string
}

// engine runs test programs. Each call must use a fresh, isolated VM; implementations are
// called from several goroutines at once.
type engine interface {
	// Run runs one job; ctx carries the wall-clock deadline.
	Run(ctx context.Context, job engineJob) engineResult
}

const (
	harnessAssert    = "assert.js"
	harnessSta       = "sta.js"
	harnessDonePrint = "doneprintHandle.js"
	useStrict        = "\"use strict\";\n"
)

// harness loads and caches files of the test262 harness directory.
type harness struct {
	dir   string
	mu    sync.Mutex
	files map[string]string
}

func newHarness(root string) *harness {
	return &harness{dir: filepath.Join(root, "harness"), files: map[string]string{}}
}

// file returns the source of harness/<name>, reading it once.
func (h *harness) file(name string) (string, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if src, ok := h.files[name]; ok {
		return src, nil
	}
	data, err := os.ReadFile(filepath.Join(h.dir, filepath.FromSlash(name)))
	if err != nil {
		return "", fmt.Errorf("harness %s: %w", name, err)
	}
	src, err := withoutCodeGeneration(name, string(data))
	if err != nil {
		return "", err
	}
	h.files[name] = src
	return src, nil
}

// harnessRewrites replace, in harness files, code that builds functions from strings (which
// the language leaves out) by the code it would build: resizableArrayBufferUtils.js makes its
// typed array subclasses with new Function only to survive engines without class syntax.
var harnessRewrites = map[string][2]string{
	"resizableArrayBufferUtils.js": {
		`return new Function('return class My' + type + ' extends ' + type + ' {}')();`,
		`return { Uint8Array: class MyUint8Array extends Uint8Array {}, Float32Array: class MyFloat32Array extends Float32Array {}, BigInt64Array: class MyBigInt64Array extends BigInt64Array {} }[type];`,
	},
}

// withoutCodeGeneration applies the rewrite of harness file name, if it has one; a file whose
// text no longer holds the code to replace is an error, so that a changed harness is noticed.
func withoutCodeGeneration(name, src string) (string, error) {
	r, ok := harnessRewrites[name]
	if !ok {
		return src, nil
	}
	if !strings.Contains(src, r[0]) {
		return "", fmt.Errorf("harness %s: the code it builds from a string has changed; update harnessRewrites", name)
	}
	return strings.Replace(src, r[0], r[1], 1), nil
}

// skipReason returns why a test is skipped for a feature one of its includes declares
// (a harness file may need a feature the language leaves out), or "".
func (h *harness) skipReason(md *metadata) string {
	for _, name := range md.Includes {
		src, err := h.file(name)
		if err != nil {
			continue // assemble reports it
		}
		hm, err := parseMetadata(src)
		if err != nil {
			continue
		}
		for _, f := range hm.Features {
			if reason := featureSkipReason(f); reason != "" {
				return fmt.Sprintf("feature %s of harness %s: %s", f, name, reason)
			}
		}
	}
	return ""
}

// assemble builds the script that runs a test: for raw tests the body unchanged;
// otherwise (when strict) the "use strict" directive, assert.js, sta.js, doneprintHandle.js
// for async tests, each include in order, then the body.
func (h *harness) assemble(body string, md *metadata, strict bool) (string, error) {
	if md.hasFlag(flagRaw) {
		return body, nil
	}
	names := []string{harnessAssert, harnessSta}
	if md.hasFlag(flagAsync) {
		names = append(names, harnessDonePrint)
	}
	names = append(names, md.Includes...)
	var b strings.Builder
	if strict {
		b.WriteString(useStrict)
	}
	seen := map[string]bool{}
	for _, name := range names {
		if seen[name] {
			continue
		}
		seen[name] = true
		src, err := h.file(name)
		if err != nil {
			return "", err
		}
		b.WriteString(src)
		b.WriteString("\n")
	}
	b.WriteString(body)
	return b.String(), nil
}
