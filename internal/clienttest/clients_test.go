package clienttest

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// The clients' tests run against one fresh service.
var service *Service

func TestMain(m *testing.M) {
	var logs bytes.Buffer
	svc, err := Start(context.Background(), &logs)
	if err != nil {
		fmt.Fprintf(os.Stderr, "starting codemode dev: %v\n%s", err, logs.Bytes())
		os.Exit(1)
	}
	service = svc
	code := m.Run()
	svc.Stop()
	if code != 0 {
		fmt.Fprintf(os.Stderr, "service logs:\n%s", logs.Bytes())
	}
	os.Exit(code)
}

// root is the repository root, relative to this package's directory.
const root = "../.."

// lookPath returns the path of a command the clients' tests need; its absence fails the test.
func lookPath(t *testing.T, name, why string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		t.Fatalf("%s is required to test %s: %v", name, why, err)
	}
	return p
}

// run runs a command in dir with the service's address in its environment and returns its
// combined output; a failure fails the test with that output.
func run(t *testing.T, dir string, name string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CODEMODE_URL="+service.URL, "CODEMODE_TOOLSET="+Toolset,
		"CODEMODE_API_TOKEN=", "PYTHONDONTWRITEBYTECODE=1", "NO_COLOR=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s in %s: %v\n%s", name, strings.Join(args, " "), dir, err, out)
	}
	return string(out)
}

// The TypeScript client: its generated types are those of api/openapi.yaml, it type-checks,
// its tests (node --test) pass against the service with none skipped, and its example prints
// the approved run's value.
func TestTypeScriptClient(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(root, "clients", "typescript")
	node := lookPath(t, "node", "the TypeScript client (install Node.js 20 or later)")
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "openapi-fetch", "package.json")); err != nil {
		npm := lookPath(t, "npm", "the TypeScript client (it installs the pinned packages with npm ci)")
		run(t, dir, npm, "ci", "--no-audit", "--no-fund", "--loglevel=error")
	}

	schema := filepath.Join(t.TempDir(), "schema.d.ts")
	run(t, dir, node, "node_modules/openapi-typescript/bin/cli.js", "../../api/openapi.yaml", "-o", schema)
	want, err := os.ReadFile(schema)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(dir, "src", "schema.d.ts"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("clients/typescript/src/schema.d.ts is not generated from api/openapi.yaml: run npm run generate in clients/typescript")
	}

	// src/index.d.ts is built from the sources (npm's prepare step, at install): rebuilt here so
	// that a working tree installed before the last change checks what is there now.
	run(t, dir, node, "node_modules/typescript/bin/tsc", "-p", "tsconfig.build.json")
	run(t, dir, node, "node_modules/typescript/bin/tsc", "-p", ".")

	out := run(t, dir, node, "--test")
	for _, want := range []string{"# pass 6", "# fail 0", "# skipped 0"} {
		if !strings.Contains(out, want) {
			t.Errorf("node --test: want %q in its output:\n%s", want, out)
		}
	}

	out = run(t, dir, node, "example.js")
	checkExample(t, "example.js", out)
}

// The Python client: its tests (unittest) pass against the service with none skipped, and its
// example prints the approved run's value.
func TestPythonClient(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(root, "clients", "python")
	python := lookPath(t, "python3", "the Python client (install Python 3.9 or later)")
	out := run(t, dir, python, "-m", "unittest", "-v")
	if !regexp.MustCompile(`(?m)^Ran 6 tests`).MatchString(out) || !regexp.MustCompile(`(?m)^OK$`).MatchString(out) {
		t.Errorf("python3 -m unittest: want 6 tests run, none skipped:\n%s", out)
	}
	out = run(t, dir, python, "example.py")
	checkExample(t, "example.py", out)
}

// checkExample checks the output of a client's example: suspended on the approval, then 42
// and the run's timeline.
func checkExample(t *testing.T, name, out string) {
	t.Helper()
	for _, want := range []string{"suspended 2 ops.approvals.request\n", "succeeded 42\n", " finished\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("%s: want %q in its output:\n%s", name, want, out)
		}
	}
}
