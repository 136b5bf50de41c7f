package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/internal/signing"
	"github.com/codemode/codemode/internal/sse/ssetest"
	"github.com/codemode/codemode/internal/toolset/mcp/mcptest"
	"github.com/codemode/codemode/internal/toolset/toolsettest"
)

func TestMoreUsageErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args   []string
		stdin  string
		stderr []string
		hides  string // stderr does not contain this (a credential)
	}{
		{args: []string{"runs", "events"}, stderr: []string{"accepts 1 arg(s), received 0", "usage: codemode runs events RUN"}},
		{args: []string{"runs", "events", "RUN", "--after", "-1"}, stderr: []string{"--after -1"}},
		{args: []string{"runs", "events", "RUN", "--limit", "-4"}, stderr: []string{"--limit -4"}},
		{args: []string{"runs", "events", "RUN", "--follow", "--limit", "5"}, stderr: []string{"--follow prints every event"}},
		{args: []string{"runs", "events", "RUN", "--follow=maybe"}, stderr: []string{`invalid argument "maybe"`}},
		{args: []string{"runs", "retry"}, stderr: []string{"accepts 1 arg(s), received 0"}},
		{args: []string{"runs", "retry", "RUN", "--after-call", "1"}, stderr: []string{"unknown flag: --after-call"}},
		{args: []string{"runs", "fork", "RUN"}, stderr: []string{"exactly one of --after-call and --from-snapshot"}},
		{args: []string{"runs", "fork", "RUN", "--after-call", "1", "--from-snapshot", "0"}, stderr: []string{"exactly one of --after-call and --from-snapshot"}},
		{args: []string{"runs", "fork", "--after-call", "0", "RUN"}, stderr: []string{"--after-call 0"}},
		{args: []string{"runs", "fork", "RUN", "--from-snapshot", "-1"}, stderr: []string{"--from-snapshot -1"}},
		{args: []string{"runs", "fork", "RUN", "--after-call", "two"}, stderr: []string{`invalid argument "two"`}},
		{args: []string{"runs", "fork", "RUN", "--after-call", "2", "--code", "/nonexistent/fix.js"}, stderr: []string{"/nonexistent/fix.js"}},
		{args: []string{"runs", "deliveries", "RUN", "--limit", "-1"}, stderr: []string{"--limit -1"}},
		{args: []string{"runs", "create", "-", "--timeout-ms", "0"}, stderr: []string{"--timeout-ms 0: give 1 or more"}},
		{args: []string{"runs", "create", "-", "--max-tool-calls", "-1"}, stderr: []string{"--max-tool-calls -1: give 1 or more"}},
		{args: []string{"runs", "create", "-", "--max-output-bytes", "0"}, stderr: []string{"--max-output-bytes 0: give 1 or more"}},
		{args: []string{"runs", "create", "-", "--max-memory-bytes", "-8"}, stderr: []string{"--max-memory-bytes -8: give 1 or more"}},
		{args: []string{"runs", "create", "-", "--max-tool-calls", "many"}, stderr: []string{`invalid argument "many"`}},
		{args: []string{"runs", "create", "-", "--webhook-secret", "s"}, stderr: []string{"give --webhook-url too"}},
		{args: []string{"runs", "create", "-", "--webhook-url", "example.com/hooks"}, stderr: []string{`--webhook-url "example.com/hooks" is not an http(s) URL`}},
		{args: []string{"runs", "create", "-", "--idempotency-key", ""}, stderr: []string{"--idempotency-key: give 1 to 255 characters"}},
		{args: []string{"runs", "create", "-", "--idempotency-key", strings.Repeat("k", 256)}, stderr: []string{"--idempotency-key: give 1 to 255 characters"}},
		{args: []string{"runs", "create", "-", "--idempotency-key", "deploy\n42"}, stderr: []string{"none of them control characters"}},
		{args: []string{"runs", "retry", "RUN", "--idempotency-key", ""}, stderr: []string{"--idempotency-key: give 1 to 255 characters"}},
		{args: []string{"runs", "fork", "RUN", "--after-call", "1", "--idempotency-key", ""}, stderr: []string{"--idempotency-key: give 1 to 255 characters"}},
		{args: []string{"toolsets", "add"}, stderr: []string{"accepts between 1 and 2 arg(s), received 0", "usage: codemode toolsets add NAME [URL]"}},
		{args: []string{"toolsets", "add", "ops", "http://a/", "extra"}, stderr: []string{"accepts between 1 and 2 arg(s), received 3"}},
		{args: []string{"toolsets", "add", "ops", "http://a/", "--kind", "grpc"}, stderr: []string{`--kind "grpc": give http, openapi or mcp`}},
		{args: []string{"toolsets", "add", "docs", "--kind", "mcp"}, stderr: []string{"give URL: a toolset of kind mcp is called there"}},
		{args: []string{"toolsets", "add", "pets", "--kind", "openapi"}, stderr: []string{"give one of URL (where to fetch the OpenAPI document) and --document"}},
		{args: []string{"toolsets", "add", "pets", "http://a/openapi.json", "--kind", "openapi", "--document", "-"}, stdin: "{}", stderr: []string{"give one of URL"}},
		{args: []string{"toolsets", "add", "pets", "--kind", "openapi", "--document", "/nonexistent/pets.yaml"}, stderr: []string{"/nonexistent/pets.yaml"}},
		{args: []string{"toolsets", "add", "pets", "--kind", "openapi", "--document", "-"}, stdin: "openapi: [3.0", stderr: []string{"--document - is neither JSON nor YAML"}},
		{args: []string{"toolsets", "add", "pets", "--kind", "openapi", "--document", "-"}, stdin: `["openapi"]`, stderr: []string{"--document - is not an OpenAPI document: JSON, but not an object"}},
		{args: []string{"toolsets", "add", "pets", "--kind", "openapi", "--document", "-"}, stdin: "- openapi", stderr: []string{"--document - is not an OpenAPI document"}},
		{args: []string{"toolsets", "add", "pets", "--kind", "openapi", "--document", "-"}, stdin: "", stderr: []string{"--document - is not an OpenAPI document"}},
		{args: []string{"toolsets", "add", "pets", "--kind", "openapi", "--document", "-"}, stdin: "x: .nan", stderr: []string{"--document - cannot be sent as JSON"}},
		{args: []string{"toolsets", "add", "pets", "--document", "pets.yaml"}, stderr: []string{"--document is for --kind openapi"}},
		{args: []string{"toolsets", "add", "docs", "http://a/", "--kind", "mcp", "--base-url", "http://b/"}, stderr: []string{"--base-url is for --kind openapi"}},
		{args: []string{"toolsets", "add", "pets", "http://a/o.json", "--kind", "openapi", "--base-url", "b.example.com"}, stderr: []string{`--base-url "b.example.com" is not an http(s) URL`}},
		{args: []string{"toolsets", "add", "ops", "http://a/", "--auth", `{"type": "bearer", "token": "t"}`}, stderr: []string{"--auth is for --kind openapi or mcp"}},
		{args: []string{"toolsets", "add", "docs", "http://a/", "--kind", "mcp", "--auth", `{"type": "bearer", "token": "s3cret`},
			stderr: []string{"--auth is not JSON"}, hides: "s3cret"},
		{args: []string{"toolsets", "add", "docs", "http://a/", "--kind", "mcp", "--auth", `{"type": "bearer", "tokn": "s3cret"}`},
			stderr: []string{"--auth is not credentials", `unknown field "tokn"`}, hides: "s3cret"},
		{args: []string{"toolsets", "add", "docs", "http://a/", "--kind", "mcp", "--auth", `"s3cret"`}, stderr: []string{"--auth is not credentials"}, hides: "s3cret"},
		{args: []string{"toolsets", "add", "docs", "http://a/", "--kind", "mcp", "--auth", `{"type": "oauth2", "token": "s3cret"}`},
			stderr: []string{`--auth: type "oauth2": give apiKey, bearer or basic`}, hides: "s3cret"},
		{args: []string{"toolsets", "add", "pets", "http://a/o.json", "--kind", "openapi", "--auth", `{"type": "apiKey", "in": "cookie", "name": "k", "value": "s3cret"}`},
			stderr: []string{`--auth: in "cookie": give header or query`}, hides: "s3cret"},
		{args: []string{"toolsets", "add", "docs", "http://a/", "--kind", "mcp", "--secret", "s"}, stderr: []string{"--secret is for --kind http"}},
		{args: []string{"toolsets", "add", "pets", "--kind", "openapi", "--document", "-", "--tools", "[]"}, stderr: []string{"--tools is for --kind http"}},
		{args: []string{"toolsets", "add", "docs", "http://a/", "--kind", "mcp", "--namespaces", "[]"}, stderr: []string{"--namespaces is for --kind http"}},
		{args: []string{"toolsets", "add", "ops", "http://a/", "--tools", "[{nope"}, stderr: []string{"--tools is not JSON"}},
		{args: []string{"toolsets", "add", "ops", "http://a/", "--tools", "[]", "--namespaces", "{"}, stderr: []string{"--namespaces is not JSON"}},
		{args: []string{"toolsets", "add", "ops", "http://a/", "--namespaces", `[{"path": "math"}]`}, stderr: []string{"give --tools too"}},
		{args: []string{"toolsets", "update", "pets", "--base-url", "b.example.com"}, stderr: []string{`--base-url "b.example.com" is not an http(s) URL`}},
		{args: []string{"toolsets", "update", "pets", "--auth", `{"type": "oauth2", "token": "s3cret"}`}, stderr: []string{`--auth: type "oauth2"`}, hides: "s3cret"},
		{args: []string{"toolsets", "get"}, stderr: []string{"accepts 1 arg(s), received 0"}},
		{args: []string{"toolsets", "update"}, stderr: []string{"accepts between 1 and 2 arg(s), received 0"}},
		{args: []string{"toolsets", "update", "ops", "http://a/", "extra"}, stderr: []string{"accepts between 1 and 2 arg(s), received 3"}},
		{args: []string{"toolsets", "update", "ops", "--tools", "[{nope"}, stderr: []string{"--tools is not JSON"}},
		{args: []string{"toolsets", "update", "ops", "--namespaces", "{"}, stderr: []string{"--namespaces is not JSON"}},
		{args: []string{"toolsets", "delete", "ops", "--force=maybe"}, stderr: []string{`invalid argument "maybe"`}},
		{args: []string{"schedules"}, stderr: []string{"Available Commands:", "create", "pause"}},
		{args: []string{"schedules", "frob"}, stderr: []string{`unknown command "frob" for "codemode schedules"`}},
		{args: []string{"schedules", "create", "-"}, stderr: []string{"exactly one of --cron and --every"}},
		{args: []string{"schedules", "create", "-", "--cron", "@hourly", "--every", "5m"}, stderr: []string{"exactly one of --cron and --every"}},
		{args: []string{"schedules", "create", "-", "--every", "5m", "--overlap", "sometimes"}, stderr: []string{`--overlap "sometimes"`, "skip, queue or allow"}},
		{args: []string{"schedules", "create", "-", "--every", "5m", "--input", "{nope"}, stderr: []string{"--input is not JSON: {nope"}},
		{args: []string{"schedules", "create", "/nonexistent/prog.js", "--every", "5m"}, stderr: []string{"/nonexistent/prog.js"}},
		{args: []string{"schedules", "create", "-", "--every", "5m", "--timeout-ms", "0"}, stderr: []string{"--timeout-ms 0: give 1 or more"}},
		{args: []string{"schedules", "create", "-", "--every", "5m", "--max-memory-bytes", "-1"}, stderr: []string{"--max-memory-bytes -1: give 1 or more"}},
		{args: []string{"schedules", "create", "-", "--every", "5m", "--max-output-bytes", "lots"}, stderr: []string{`invalid argument "lots"`}},
		{args: []string{"schedules", "list", "--limit", "-3"}, stderr: []string{"--limit -3"}},
		{args: []string{"runs", "list", "--created-after", "yesterday"}, stderr: []string{`--created-after "yesterday": give an RFC 3339 time`}},
		{args: []string{"schedules", "list", "extra"}, stderr: []string{`unknown command "extra" for "codemode schedules list"`}},
		{args: []string{"schedules", "update", "ID"}, stderr: []string{"nothing to change"}},
		{args: []string{"schedules", "update", "ID", "--cron", "@hourly", "--every", "5m"}, stderr: []string{"at most one of --cron and --every"}},
		{args: []string{"schedules", "update", "ID", "--overlap", "never"}, stderr: []string{`--overlap "never"`}},
		{args: []string{"schedules", "update", "ID", "--input", "[1,"}, stderr: []string{"--input is not JSON: [1,"}},
		{args: []string{"schedules", "update", "ID", "--toolsets", " , "}, stderr: []string{`--toolsets " , "`}},
		{args: []string{"schedules", "update", "ID", "--toolsets", "a", "--all-toolsets"}, stderr: []string{"at most one of --toolsets and --all-toolsets"}},
		{args: []string{"schedules", "update", "ID", "--code", "/nonexistent/prog.js"}, stderr: []string{"/nonexistent/prog.js"}},
		{args: []string{"schedules", "update", "ID", "--max-tool-calls", "0"}, stderr: []string{"--max-tool-calls 0: give 1 or more"}},
		{args: []string{"schedules", "update", "ID", "--timeout-ms", "-1000"}, stderr: []string{"--timeout-ms -1000: give 1 or more"}},
		{args: []string{"schedules", "update"}, stderr: []string{"accepts 1 arg(s), received 0"}},
		{args: []string{"schedules", "get"}, stderr: []string{"accepts 1 arg(s), received 0"}},
		{args: []string{"schedules", "pause"}, stderr: []string{"accepts 1 arg(s), received 0"}},
		{args: []string{"schedules", "resume", "a", "b"}, stderr: []string{"accepts 1 arg(s), received 2"}},
		{args: []string{"schedules", "delete"}, stderr: []string{"accepts 1 arg(s), received 0"}},
		{args: []string{"schedules", "list", "--url", "localhost:8080"}, stderr: []string{`--url "localhost:8080" is not an http(s) URL`}},
		{args: []string{"webhooks"}, stderr: []string{"Available Commands:", "redeliver"}},
		{args: []string{"webhooks", "create", "https://example.com/h", "--secret", "s"}, stderr: []string{`--events ""`, "run.completed"}},
		{args: []string{"webhooks", "create", "https://example.com/h", "--events", "run.completed"}, stderr: []string{"give --secret"}},
		{args: []string{"webhooks", "create", "https://example.com/h", "--events", "run.completed,run.done", "--secret", "s"}, stderr: []string{`"run.done" is not an event`}},
		{args: []string{"webhooks", "update", "HOOK"}, stderr: []string{"nothing to change"}},
		{args: []string{"webhooks", "update", "HOOK", "--enable", "--disable"}, stderr: []string{"at most one of --enable and --disable"}},
		{args: []string{"webhooks", "update", "HOOK", "--secret", ""}, stderr: []string{"--secret: give a secret"}},
		{args: []string{"webhooks", "update", "HOOK", "--events", " , "}, stderr: []string{"--events"}},
		{args: []string{"webhooks", "deliveries", "HOOK", "--limit", "-2"}, stderr: []string{"--limit -2"}},
		{args: []string{"webhooks", "get"}, stderr: []string{"accepts 1 arg(s), received 0"}},
		{args: []string{"webhooks", "delete"}, stderr: []string{"accepts 1 arg(s), received 0"}},
		// The API redelivers by the delivery's id alone.
		{args: []string{"webhooks", "redeliver", "HOOK", "msg_1"}, stderr: []string{"accepts 1 arg(s), received 2", "usage: codemode webhooks redeliver DELIVERY"}},
		{args: []string{"webhooks", "list", "extra"}, stderr: []string{`unknown command "extra" for "codemode webhooks list"`}},
		{args: []string{"catalog", "extra"}, stderr: []string{`unknown command "extra" for "codemode catalog"`}},
		{args: []string{"catalog", "--budget-tokens", "5"}, stderr: []string{"unknown flag: --budget-tokens", "usage: codemode catalog [--toolsets a,b] [flags]"}},
		{args: []string{"catalog", "prompt", "--budget-tokens", "-1"}, stderr: []string{"--budget-tokens -1"}},
		{args: []string{"catalog", "prompt", "--budget-tokens", "lots"}, stderr: []string{`invalid argument "lots"`}},
		{args: []string{"catalog", "prompt", "extra"}, stderr: []string{`unknown command "extra" for "codemode catalog prompt"`}},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			t.Parallel()
			code, out, errOut := runCLI(t, tt.stdin, tt.args...)
			require.Equal(t, ExitUsage, code, "stdout %s stderr %s", out, errOut)
			require.Empty(t, out)
			for _, s := range tt.stderr {
				require.Contains(t, errOut, s)
			}
			if tt.hides != "" {
				require.NotContains(t, errOut, tt.hides)
			}
		})
	}
}

// step is one command of TestMoreClientVerbs. {NAME} in args, want, out and stderr is the value
// an earlier step saved under NAME.
type step struct {
	name   string
	stdin  string
	args   []string // --url of the service is added unless given
	code   int      // exit status
	want   string   // JSON the answer contains (requireSubset)
	out    []string // stdout contains these
	stderr string   // stderr contains this (code != ExitOK)
	empty  bool     // nothing on stdout (an answer without a body)
	// save names values of the answer for later steps: NAME -> a path such as "id" or
	// "lineage.forkedFrom" or "deliveries.0.id".
	save map[string]string
	// check, when set, checks the answer further.
	check func(t *testing.T, got map[string]any)
	// until, when set, asks again (up to 30 s) until it holds of the answer (work the service
	// does in the background); it may save values.
	until func(got map[string]any, vars map[string]string) bool
}

// count checks that the answer's field holds n items.
func count(field string, n int) func(t *testing.T, got map[string]any) {
	return func(t *testing.T, got map[string]any) {
		t.Helper()
		require.Len(t, got[field], n, "%s of %v", field, got)
	}
}

// lookup returns the value at a dotted path of a JSON document ("deliveries.0.id").
func lookup(doc any, path string) (any, bool) {
	for _, key := range strings.Split(path, ".") {
		switch v := doc.(type) {
		case map[string]any:
			var ok bool
			if doc, ok = v[key]; !ok {
				return nil, false
			}
		case []any:
			i, err := strconv.Atoi(key)
			if err != nil || i < 0 || i >= len(v) {
				return nil, false
			}
			doc = v[i]
		default:
			return nil, false
		}
	}
	return doc, true
}

// expand replaces each {NAME} in s with vars[NAME].
func expand(s string, vars map[string]string) string {
	for k, v := range vars {
		s = strings.ReplaceAll(s, "{"+k+"}", v)
	}
	return s
}

// petsYAML describes the pets API of TestMoreClientVerbs in YAML as people write it: a status
// code and a date unquoted, a server relative to the document's URL.
const petsYAML = `openapi: 3.0.3
info:
  title: pets
  version: 2024-01-01
servers:
  - url: /v1
paths:
  /pets/{id}:
    get:
      operationId: pets.get
      parameters:
        - {name: id, in: path, required: true, schema: {type: integer}}
      responses:
        200:
          description: ok
          content:
            application/json:
              schema:
                type: object
                properties:
                  id: {type: integer}
                  name: {type: string}
`

// petsJSON is petsYAML in JSON.
const petsJSON = `{"openapi": "3.0.3", "info": {"title": "pets", "version": "2024-01-01"}, "servers": [{"url": "/v1"}],
  "paths": {"/pets/{id}": {"get": {"operationId": "pets.get",
    "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "integer"}}],
    "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"type": "object",
      "properties": {"id": {"type": "integer"}, "name": {"type": "string"}}}}}}}}}}}`

// TestMoreClientVerbs runs every verb of the runs, toolsets, schedules, webhooks and catalog
// groups against a real codemode dev, checking the printed answers and exit statuses.
func TestMoreClientVerbs(t *testing.T) {
	t.Parallel()
	tools := toolsettest.New(t, toolsettest.Options{})
	const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
	key, err := signing.ParseSecret(secret)
	require.NoError(t, err)
	var received sync.Map      // webhook-id -> times received
	var runSigned atomic.Int64 // deliveries to a run's own webhook (at /run) signed with secret
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n, _ := received.LoadOrStore(r.Header.Get("webhook-id"), new(int))
		*n.(*int)++
		if r.URL.Path == "/run" {
			body, _ := io.ReadAll(r.Body)
			if key.Verify(r.Header, body) == nil {
				runSigned.Add(1)
			}
		}
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(receiver.Close)
	// The pets API of petsYAML, which answers only with its bearer token.
	const petsToken = "pets-tok-5e5a8d1c"
	pets := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/openapi.yaml":
			w.Header().Set("Content-Type", "application/yaml")
			_, _ = io.WriteString(w, petsYAML)
		case r.Header.Get("Authorization") != "Bearer "+petsToken:
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusUnauthorized)
			_, _ = io.WriteString(w, `{"error":"who are you?"}`)
		case r.Method == http.MethodGet && r.URL.Path == "/v1/pets/7":
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, `{"id":7,"name":"rex"}`)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(pets.Close)
	const mcpToken = "mcp-tok-90b1e2f4"
	mcpServer := httptest.NewServer(mcptest.Handler(mcpToken))
	t.Cleanup(func() {
		// A worker's MCP session may keep a stream open: cut it rather than wait for it.
		mcpServer.CloseClientConnections()
		mcpServer.Close()
	})
	d := startDev(t, clusterDir(t))
	dir := t.TempDir()
	prog := filepath.Join(dir, "ship.js")
	require.NoError(t, os.WriteFile(prog, []byte(`const {sum} = await tools.ops.math.add({a: 2, b: 40});
const ok = await tools.ops.approvals.request({reason: "ship " + sum + "?"});
return ok.approved ? sum : -1`), 0o644))
	petsDoc := filepath.Join(dir, "pets.yaml")
	require.NoError(t, os.WriteFile(petsDoc, []byte(petsYAML), 0o644))
	const unknown = "00000000-0000-0000-0000-000000000000"
	vars := map[string]string{"TOOLS": tools.URL, "RECEIVER": receiver.URL, "PROG": prog, "UNKNOWN": unknown,
		"PETS": pets.URL, "PETSDOC": petsDoc, "MCP": mcpServer.URL}
	// differs checks that the answer's id is not the one saved under name.
	differs := func(name string) func(t *testing.T, got map[string]any) {
		return func(t *testing.T, got map[string]any) {
			t.Helper()
			require.NotEqual(t, vars[name], got["id"], "a new run, not %s", name)
		}
	}

	steps := []step{
		// toolsets get, update, delete
		{name: "register ops", args: []string{"toolsets", "add", "ops", "{TOOLS}"}, want: `{"name":"ops"}`},
		{name: "toolsets get", args: []string{"toolsets", "get", "ops"}, want: `{"name":"ops","url":"{TOOLS}"}`, out: []string{`"path":"approvals.request"`}},
		{name: "toolsets get unknown", args: []string{"toolsets", "get", "nope"}, code: ExitFailed, stderr: "HTTP 404"},
		{name: "toolsets update description", args: []string{"toolsets", "update", "ops", "--description", "Ops tools"}, want: `{"name":"ops","description":"Ops tools"}`},
		{name: "toolsets update unknown", args: []string{"toolsets", "update", "nope"}, code: ExitFailed, stderr: "HTTP 404"},
		{name: "register spare", args: []string{"toolsets", "add", "spare", "{TOOLS}"}, want: `{"name":"spare"}`},
		{name: "toolsets update inline tools", args: []string{"toolsets", "update", "--tools", `[{"path": "echo", "description": "Echo"}]`, "spare"},
			want:  `{"name":"spare","tools":[{"path":"echo","description":"Echo"}]}`,
			check: count("tools", 1)},
		{name: "toolsets update from URL", args: []string{"toolsets", "update", "spare", "{TOOLS}", "--secret", "", "--description", "Spare"},
			want: `{"name":"spare","description":"Spare","hasSecret":false}`, out: []string{`"path":"approvals.request"`}},
		{name: "a run that may call spare", stdin: `await tools.spare.approvals.request({reason: "spare"})`,
			args: []string{"runs", "create", "-", "--toolsets", "spare", "--wait", "10"}, want: `{"status":"suspended"}`, save: map[string]string{"SPARERUN": "id"}},
		{name: "runs list --toolset", args: []string{"runs", "list", "--toolset", "spare"}, want: `{"runs":[{"id":"{SPARERUN}"}]}`, check: count("runs", 1)},
		{name: "runs list --schedule", args: []string{"runs", "list", "--schedule", unknown}, want: `{"next":null}`, check: count("runs", 0)},
		{name: "runs list --schedule not an id", args: []string{"runs", "list", "--schedule", "nope"}, code: ExitFailed, stderr: "HTTP 400"},
		{name: "runs list --created-after", args: []string{"runs", "list", "--created-after", "2999-01-01T00:00:00Z"}, want: `{"next":null}`, check: count("runs", 0)},
		{name: "runs list --created-after past", args: []string{"runs", "list", "--created-after", "2000-01-01T00:00:00+02:00", "--toolset", "spare"}, check: count("runs", 1)},
		{name: "toolsets delete refused", args: []string{"toolsets", "delete", "spare"}, code: ExitFailed, stderr: "HTTP 409"},
		{name: "toolsets delete --force", args: []string{"toolsets", "delete", "spare", "--force"}, empty: true},
		{name: "toolsets get deleted", args: []string{"toolsets", "get", "spare"}, code: ExitFailed, stderr: "HTTP 404"},
		{name: "toolsets delete unknown", args: []string{"toolsets", "delete", "spare"}, code: ExitFailed, stderr: "HTTP 404"},

		// catalog
		{name: "catalog", args: []string{"catalog", "--toolsets", " ops "}, want: `{"tools":[{"toolset":"ops"}]}`, out: []string{`"path":"ops.math.add"`, `"signature":"tools.ops.math.add(`}},
		{name: "catalog unknown toolset", args: []string{"catalog", "--toolsets", "ops,nope"}, code: ExitFailed, stderr: "HTTP 404"},
		{name: "catalog prompt", args: []string{"catalog", "prompt", "--toolsets", "ops", "--budget-tokens", "30"},
			out: []string{`{"prompt":"`, "tools.ops.math", "Call search"}},
		{name: "catalog prompt unknown toolset", args: []string{"catalog", "prompt", "--toolsets", "nope"}, code: ExitFailed, stderr: "HTTP 404"},

		// toolsets add of each kind
		{name: "toolsets add --tools --namespaces", args: []string{"toolsets", "add", "inline", "{TOOLS}", "--description", "Inline",
			"--tools", `[{"path": "math.add", "description": "Add"}]`, "--namespaces", `[{"path": "math", "description": "Arithmetic"}]`},
			want:  `{"name":"inline","description":"Inline","tools":[{"path":"math.add","description":"Add"}],"namespaces":[{"path":"math","description":"Arithmetic"}]}`,
			check: count("tools", 1)},
		{name: "toolsets add --kind openapi --document FILE", args: []string{"toolsets", "add", "pets", "--kind", "openapi", "--document", "{PETSDOC}",
			"--base-url", "{PETS}/v1", "--auth", `{"type": "bearer", "token": "` + petsToken + `"}`, "--description", "Pets"},
			want: `{"name":"pets","kind":"openapi","hasAuth":true,"description":"Pets","tools":[{"path":"pets.get"}]}`,
			check: func(t *testing.T, got map[string]any) {
				require.NotContains(t, fmt.Sprint(got), petsToken, "auth is never shown")
			}},
		{name: "toolsets add --kind openapi --document -", stdin: petsJSON, args: []string{"toolsets", "add", "pets2", "--kind", "openapi", "--document", "-",
			"--base-url", "{PETS}/v1"}, want: `{"name":"pets2","kind":"openapi","hasAuth":false,"tools":[{"path":"pets.get"}]}`},
		{name: "toolsets add --kind openapi URL", args: []string{"toolsets", "add", "pets3", "{PETS}/openapi.yaml", "--kind", "openapi",
			"--auth", `{"type": "bearer", "token": "` + petsToken + `"}`}, want: `{"name":"pets3","kind":"openapi","url":"{PETS}/openapi.yaml","hasAuth":true}`},
		{name: "an inline document with a relative server needs --base-url", args: []string{"toolsets", "add", "pets4", "--kind", "openapi", "--document", "{PETSDOC}"},
			code: ExitFailed, stderr: "HTTP 400"},
		{name: "a run calls the OpenAPI toolsets", stdin: `const a = await tools.pets.pets.get({id: 7});
const b = await tools.pets3.pets.get({id: 7});
let refused = null;
try { await tools.pets2.pets.get({id: 7}); } catch (e) { refused = e.message; }
return {a: a.name, b: b.name, refused};`, args: []string{"runs", "create", "-", "--toolsets", "pets,pets2,pets3", "--wait", "10"},
			want: `{"status":"succeeded","result":{"value":{"a":"rex","b":"rex"}}}`, out: []string{"answered 401"}},
		{name: "toolsets update --auth --base-url", args: []string{"toolsets", "update", "pets2", "--auth", `{"type": "bearer", "token": "` + petsToken + `"}`,
			"--base-url", "{PETS}/v1"}, want: `{"name":"pets2","hasAuth":true}`,
			check: func(t *testing.T, got map[string]any) {
				require.NotContains(t, fmt.Sprint(got), petsToken, "auth is never shown")
			}},
		{name: "a run calls pets2 with its new credentials", stdin: `return (await tools.pets2.pets.get({id: 7})).name`,
			args: []string{"runs", "create", "-", "--toolsets", "pets2", "--wait", "10"}, want: `{"status":"succeeded","result":{"value":"rex"}}`},
		{name: "toolsets add --kind mcp --auth", args: []string{"toolsets", "add", "m", "{MCP}", "--kind", "mcp", "--description", "Test MCP",
			"--auth", `{"type": "bearer", "token": "` + mcpToken + `"}`},
			want: `{"name":"m","kind":"mcp","hasAuth":true,"description":"Test MCP"}`, out: []string{`"path":"docs.search"`}},
		{name: "an MCP server refuses no credentials", args: []string{"toolsets", "add", "m2", "{MCP}", "--kind", "mcp"}, code: ExitFailed, stderr: "HTTP 502"},
		{name: "a run calls the MCP toolset", stdin: "return (await tools.m.add({a: 2, b: 40})).sum", args: []string{"runs", "create", "-", "--toolsets", "m", "--wait", "10"},
			want: `{"status":"succeeded","result":{"value":42}}`},
		{name: "catalog of every kind", args: []string{"catalog", "--toolsets", "inline,pets,m"},
			out: []string{`"path":"inline.math.add"`, `"path":"pets.pets.get"`, `"path":"m.docs.search"`, `"signature":"tools.pets.pets.get(`}},
		{name: "toolsets list of every kind", args: []string{"toolsets", "list"}, out: []string{`"name":"pets3"`, `"kind":"openapi"`, `"kind":"mcp"`}},

		// webhooks
		{name: "webhooks create", args: []string{"webhooks", "create", "{RECEIVER}", "--secret", secret, "--events", "run.completed, run.failed"},
			want: `{"url":"{RECEIVER}","events":["run.completed","run.failed"],"enabled":true}`, save: map[string]string{"HOOK": "id"}},
		{name: "webhooks create refused", args: []string{"webhooks", "create", "not-a-url", "--secret", secret, "--events", "run.failed"}, code: ExitFailed, stderr: "HTTP 400"},
		{name: "webhooks list", args: []string{"webhooks", "list"}, want: `{"webhooks":[{"id":"{HOOK}"}]}`},
		{name: "webhooks get", args: []string{"webhooks", "get", "{HOOK}"}, want: `{"id":"{HOOK}","events":["run.completed","run.failed"]}`},
		{name: "webhooks get unknown", args: []string{"webhooks", "get", unknown}, code: ExitFailed, stderr: "HTTP 404"},
		{name: "webhooks update --disable", args: []string{"webhooks", "update", "{HOOK}", "--disable"}, want: `{"id":"{HOOK}","enabled":false}`},
		{name: "webhooks update --enable --events", args: []string{"webhooks", "update", "--enable", "--events", "run.completed,run.failed,run.suspended", "{HOOK}"},
			want: `{"enabled":true,"events":["run.completed","run.failed","run.suspended"]}`},
		{name: "webhooks update URL --secret", args: []string{"webhooks", "update", "{HOOK}", "{RECEIVER}/v2", "--secret", "a new secret, as text"}, want: `{"url":"{RECEIVER}/v2","enabled":true}`},
		{name: "webhooks update unknown", args: []string{"webhooks", "update", unknown, "--disable"}, code: ExitFailed, stderr: "HTTP 404"},

		// runs create with limits, a webhook of its own and an idempotency key
		{name: "runs create --timeout-ms ... --webhook-url --idempotency-key", stdin: "return input.n * 2", args: []string{"runs", "create", "-", "--input", `{"n": 21}`, "--timeout-ms", "5000", "--max-tool-calls", "3", "--max-output-bytes", "4096",
			"--max-memory-bytes", "67108864", "--webhook-url", "{RECEIVER}/run", "--webhook-secret", secret, "--idempotency-key", "deploy-42", "--wait", "10"},
			want: `{"status":"succeeded","limits":{"timeoutMs":5000,"maxToolCalls":3,"maxOutputBytes":4096,"maxMemoryBytes":67108864},"result":{"value":42}}`,
			save: map[string]string{"LIMITED": "id"}},
		{name: "the same run with the same key", stdin: "return input.n * 2", args: []string{"runs", "create", "-", "--input", `{"n": 21}`, "--timeout-ms", "5000", "--max-tool-calls", "3", "--max-output-bytes", "4096",
			"--max-memory-bytes", "67108864", "--webhook-url", "{RECEIVER}/run", "--webhook-secret", secret, "--idempotency-key", "deploy-42", "--wait", "10"},
			want: `{"id":"{LIMITED}","status":"succeeded"}`},
		{name: "another run with the same key", stdin: "return input.n * 3", args: []string{"runs", "create", "-", "--input", `{"n": 21}`, "--timeout-ms", "5000", "--max-tool-calls", "3", "--max-output-bytes", "4096",
			"--max-memory-bytes", "67108864", "--webhook-url", "{RECEIVER}/run", "--webhook-secret", secret, "--idempotency-key", "deploy-42", "--wait", "10"},
			code: ExitFailed, stderr: "HTTP 409"},
		{name: "the same run with another key", stdin: "return input.n * 2", args: []string{"runs", "create", "-", "--idempotency-key", "deploy-43", "--max-tool-calls", "3"},
			want: `{"limits":{"maxToolCalls":3}}`, check: differs("LIMITED")},
		{name: "a limit above the service's", stdin: "1", args: []string{"runs", "create", "-", "--max-tool-calls", "999999999"}, code: ExitFailed, stderr: "limits.maxToolCalls"},
		{name: "the run's own webhook", args: []string{"runs", "deliveries", "{LIMITED}"},
			until: func(got map[string]any, vars map[string]string) bool {
				for _, d := range got["deliveries"].([]any) {
					d := d.(map[string]any)
					if _, sub := d["subscriptionId"]; !sub && d["url"] == vars["RECEIVER"]+"/run" && d["status"] == "delivered" {
						return true
					}
				}
				return false
			},
			check: func(t *testing.T, _ map[string]any) {
				require.Positive(t, runSigned.Load(), "the run's deliveries are signed with --webhook-secret")
			}},

		// runs events, deliveries, fork, retry
		{name: "a run", args: []string{"runs", "create", "{PROG}", "--toolsets", "ops", "--wait", "10"}, want: `{"status":"suspended"}`, save: map[string]string{"RUN": "id"}},
		{name: "runs events", args: []string{"runs", "events", "{RUN}"}, want: `{"events":[{"seq":1,"type":"created"},{"seq":2}]}`},
		{name: "runs events --after --limit", args: []string{"runs", "events", "{RUN}", "--after", "1", "--limit", "1"}, want: `{"events":[{"seq":2}]}`,
			check: count("events", 1)},
		{name: "runs events unknown", args: []string{"runs", "events", unknown}, code: ExitFailed, stderr: "HTTP 404"},
		{name: "complete the run", args: []string{"calls", "complete", "{RUN}", "2", "--value", `{"approved":true}`}, want: `{"status":"recorded"}`},
		{name: "the run succeeds", args: []string{"runs", "get", "{RUN}", "--wait", "10"}, want: `{"status":"succeeded","result":{"value":42}}`},
		{name: "runs deliveries", args: []string{"runs", "deliveries", "{RUN}", "--limit", "10"}, want: `{"deliveries":[]}`,
			until: func(got map[string]any, vars map[string]string) bool {
				for _, d := range got["deliveries"].([]any) {
					d := d.(map[string]any)
					if d["eventType"] == "run.completed" && d["status"] == "delivered" && d["subscriptionId"] == vars["HOOK"] {
						vars["DELIVERY"] = d["id"].(string)
						return true
					}
				}
				return false
			}},
		{name: "webhooks deliveries", args: []string{"webhooks", "deliveries", "{HOOK}"}, out: []string{`"id":"{DELIVERY}"`, `"url":"{RECEIVER}/v2"`}},
		{name: "webhooks deliveries --limit", args: []string{"webhooks", "deliveries", "{HOOK}", "--limit", "1"}, check: count("deliveries", 1)},
		{name: "webhooks redeliver", args: []string{"webhooks", "redeliver", "{DELIVERY}"}, want: `{"id":"{DELIVERY}","status":"pending","redeliveries":1,"subscriptionId":"{HOOK}"}`},
		{name: "redelivered", args: []string{"webhooks", "deliveries", "{HOOK}", "--limit", "100"},
			until: func(got map[string]any, vars map[string]string) bool {
				for _, d := range got["deliveries"].([]any) {
					if d := d.(map[string]any); d["id"] == vars["DELIVERY"] {
						return d["status"] == "delivered"
					}
				}
				return false
			}},
		{name: "webhooks redeliver unknown", args: []string{"webhooks", "redeliver", "msg_000000000000000000000000"}, code: ExitFailed, stderr: "HTTP 404"},
		{name: "runs fork --after-call", args: []string{"runs", "fork", "{RUN}", "--after-call", "1"},
			want: `{"lineage":{"forkedFrom":"{RUN}","afterCall":1}}`, save: map[string]string{"FORK": "id"}},
		{name: "runs fork --from-snapshot --code", stdin: "return 7", args: []string{"runs", "fork", "--from-snapshot", "0", "--code", "-", "{RUN}"},
			want: `{"code":"return 7","lineage":{"forkedFrom":"{RUN}","fromSnapshot":0}}`, save: map[string]string{"FORK2": "id"}},
		{name: "the second fork succeeds", args: []string{"runs", "get", "{FORK2}", "--wait", "10"}, want: `{"status":"succeeded","result":{"value":7}}`},
		{name: "runs fork unknown call", args: []string{"runs", "fork", "{RUN}", "--after-call", "99"}, code: ExitFailed, stderr: "HTTP 404"},
		{name: "runs retry of a succeeded run", args: []string{"runs", "retry", "{RUN}"}, code: ExitFailed, stderr: "HTTP 409"},
		{name: "cancel the fork", args: []string{"runs", "cancel", "{FORK}"}, want: `{"status":"cancelled"}`},
		{name: "runs retry", args: []string{"runs", "retry", "{FORK}"}, want: `{"lineage":{"retriedFrom":"{FORK}"}}`, save: map[string]string{"RETRY": "id"}},
		{name: "the original lists its forks", args: []string{"runs", "get", "{RUN}"}, out: []string{`"{FORK}"`, `"{FORK2}"`}},
		{name: "runs retry unknown", args: []string{"runs", "retry", unknown}, code: ExitFailed, stderr: "HTTP 404"},
		{name: "runs retry --idempotency-key", args: []string{"runs", "retry", "{FORK}", "--idempotency-key", "retry-1"},
			want: `{"lineage":{"retriedFrom":"{FORK}"}}`, save: map[string]string{"RETRY2": "id"}, check: differs("RETRY")},
		{name: "runs retry with the same key", args: []string{"runs", "retry", "--idempotency-key", "retry-1", "{FORK}"}, want: `{"id":"{RETRY2}"}`},
		{name: "runs fork --idempotency-key", args: []string{"runs", "fork", "{RUN}", "--from-snapshot", "0", "--idempotency-key", "fork-1"},
			want: `{"lineage":{"forkedFrom":"{RUN}","fromSnapshot":0}}`, save: map[string]string{"FORK3": "id"}},
		{name: "runs fork with the same key", args: []string{"runs", "fork", "{RUN}", "--from-snapshot", "0", "--idempotency-key", "fork-1"}, want: `{"id":"{FORK3}"}`},
		{name: "runs fork another fork with the same key", args: []string{"runs", "fork", "{RUN}", "--after-call", "1", "--idempotency-key", "fork-1"},
			code: ExitFailed, stderr: "HTTP 409"},
		{name: "cancel the third fork", args: []string{"runs", "cancel", "{FORK3}"}, want: `{"status":"cancelled"}`},

		// schedules
		{name: "schedules create --every", stdin: "return input.n", args: []string{"schedules", "create", "-", "--every", "1h", "--overlap", "queue", "--toolsets", "ops", "--input", `{"n": 1}`},
			want: `{"overlap":"queue","paused":false,"toolsets":["ops"],"input":{"n":1},"code":"return input.n"}`, out: []string{`"every":"1h`}, save: map[string]string{"SCHED": "id"}},
		{name: "schedules create --cron", args: []string{"schedules", "create", "{PROG}", "--cron", "0 9 * * 1-5", "--timezone", "Europe/Paris"},
			want: `{"cron":"0 9 * * 1-5","timezone":"Europe/Paris","overlap":"skip"}`, save: map[string]string{"SCHED2": "id"}},
		{name: "schedules create refused", stdin: "1", args: []string{"schedules", "create", "-", "--cron", "not a cron"}, code: ExitFailed, stderr: "HTTP 400"},
		{name: "schedules list", args: []string{"schedules", "list"}, want: `{"schedules":[{"id":"{SCHED}"},{"id":"{SCHED2}"}],"next":null}`},
		{name: "schedules list --limit", args: []string{"schedules", "list", "--limit", "1"}, want: `{"schedules":[{"id":"{SCHED}"}]}`, save: map[string]string{"NEXT": "next"},
			check: count("schedules", 1)},
		{name: "schedules list --cursor", args: []string{"schedules", "list", "--cursor", "{NEXT}", "--limit", "1"}, want: `{"schedules":[{"id":"{SCHED2}"}]}`},
		{name: "schedules update", args: []string{"schedules", "update", "{SCHED2}", "--every", "2h", "--overlap", "allow", "--input", `{"n": 2}`, "--toolsets", "ops"},
			want: `{"id":"{SCHED2}","overlap":"allow","input":{"n":2},"toolsets":["ops"],"timezone":"Europe/Paris"}`, out: []string{`"every":"2h`},
			check: func(t *testing.T, got map[string]any) {
				require.NotContains(t, got, "cron", "--every replaces the cron expression")
			}},
		{name: "schedules update removes input and toolsets", args: []string{"schedules", "update", "{SCHED2}", "--input", "null", "--all-toolsets"},
			want: `{"id":"{SCHED2}","overlap":"allow"}`, check: func(t *testing.T, got map[string]any) {
				require.NotContains(t, got, "input")
				require.NotContains(t, got, "toolsets")
			}},
		{name: "schedules update --code", stdin: "return 2", args: []string{"schedules", "update", "--code", "-", "{SCHED2}"},
			want: `{"id":"{SCHED2}","code":"return 2","overlap":"allow"}`},
		{name: "schedules update refused", args: []string{"schedules", "update", "{SCHED2}", "--cron", "not a cron"}, code: ExitFailed, stderr: "HTTP 400"},
		{name: "schedules update unknown", args: []string{"schedules", "update", unknown, "--every", "1h"}, code: ExitFailed, stderr: "HTTP 404"},
		{name: "schedules get", args: []string{"schedules", "get", "{SCHED}"}, want: `{"id":"{SCHED}","paused":false}`},
		{name: "schedules get unknown", args: []string{"schedules", "get", unknown}, code: ExitFailed, stderr: "HTTP 404"},
		{name: "schedules pause", args: []string{"schedules", "pause", "{SCHED}"}, want: `{"id":"{SCHED}","paused":true}`},
		{name: "paused", args: []string{"schedules", "get", "{SCHED}"}, want: `{"paused":true}`},
		{name: "schedules resume", args: []string{"schedules", "resume", "{SCHED}"}, want: `{"id":"{SCHED}","paused":false}`},
		{name: "schedules pause unknown", args: []string{"schedules", "pause", unknown}, code: ExitFailed, stderr: "HTTP 404"},
		{name: "schedules resume unknown", args: []string{"schedules", "resume", unknown}, code: ExitFailed, stderr: "HTTP 404"},
		{name: "schedules delete", args: []string{"schedules", "delete", "{SCHED}"}, empty: true},
		{name: "schedules get deleted", args: []string{"schedules", "get", "{SCHED}"}, code: ExitFailed, stderr: "HTTP 404"},
		{name: "schedules delete unknown", args: []string{"schedules", "delete", "{SCHED}"}, code: ExitFailed, stderr: "HTTP 404"},
		{name: "schedules create --timeout-ms --max-tool-calls", stdin: "return 1", args: []string{"schedules", "create", "-", "--every", "1h", "--timeout-ms", "5000", "--max-tool-calls", "10"},
			want: `{"limits":{"timeoutMs":5000,"maxToolCalls":10}}`, save: map[string]string{"SCHED3": "id"}},
		{name: "schedules update --max-output-bytes --max-memory-bytes", args: []string{"schedules", "update", "{SCHED3}", "--max-output-bytes", "4096", "--max-memory-bytes", "67108864"},
			want: `{"id":"{SCHED3}","limits":{"maxOutputBytes":4096,"maxMemoryBytes":67108864}}`, out: []string{`"every":"1h`},
			check: func(t *testing.T, got map[string]any) {
				require.Len(t, got["limits"], 2, "the limits given replace the schedule's: %v", got["limits"])
			}},
		{name: "schedules update a limit above the service's", args: []string{"schedules", "update", "{SCHED3}", "--timeout-ms", "999999999999"}, code: ExitFailed, stderr: "limits.timeoutMs"},
		{name: "schedules delete the limited", args: []string{"schedules", "delete", "{SCHED3}"}, empty: true},

		// webhooks delete, last: the runs above deliver to it
		{name: "webhooks delete", args: []string{"webhooks", "delete", "{HOOK}"}, empty: true},
		{name: "webhooks get deleted", args: []string{"webhooks", "get", "{HOOK}"}, code: ExitFailed, stderr: "HTTP 404"},
		{name: "webhooks delete unknown", args: []string{"webhooks", "delete", "{HOOK}"}, code: ExitFailed, stderr: "HTTP 404"},
		{name: "webhooks list without it", args: []string{"webhooks", "list"}, want: `{"webhooks":[]}`, check: count("webhooks", 0)},

		// no service
		{name: "no answer", args: []string{"schedules", "list", "--url", "http://127.0.0.1:1"}, code: ExitFailed, stderr: "no answer from the service at http://127.0.0.1:1"},
	}

	for _, s := range steps {
		args := make([]string, len(s.args))
		for i, a := range s.args {
			args[i] = expand(a, vars)
		}
		if !strings.Contains(strings.Join(args, " "), "--url") {
			args = append(args, "--url", d.url)
		}
		var code int
		var out, errOut string
		var got map[string]any
		deadline := time.Now().Add(30 * time.Second)
		for {
			code, out, errOut = runCLI(t, s.stdin, args...)
			require.Equal(t, s.code, code, "%s: codemode %v: stdout %s stderr %s", s.name, args, out, errOut)
			if s.code != ExitOK {
				require.Empty(t, out, s.name)
				require.Contains(t, errOut, expand(s.stderr, vars), s.name)
				break
			}
			require.Empty(t, errOut, s.name)
			if s.empty {
				require.Empty(t, out, s.name)
				break
			}
			require.Equal(t, 1, strings.Count(out, "\n"), "%s: one JSON document: %q", s.name, out)
			got = nil
			require.NoError(t, json.Unmarshal([]byte(out), &got), "%s: %s", s.name, out)
			if s.until == nil || s.until(got, vars) {
				break
			}
			require.True(t, time.Now().Before(deadline), "%s: not yet after 30 s: %s", s.name, out)
			time.Sleep(200 * time.Millisecond)
		}
		if s.want != "" {
			var want any
			require.NoError(t, json.Unmarshal([]byte(expand(s.want, vars)), &want), s.name)
			requireSubset(t, want, any(got))
		}
		if s.check != nil {
			s.check(t, got)
		}
		for _, o := range s.out {
			require.Contains(t, out, expand(o, vars), s.name)
		}
		for name, path := range s.save {
			v, ok := lookup(got, path)
			require.True(t, ok, "%s: no %s in %s", s.name, path, out)
			str, ok := v.(string)
			require.True(t, ok, "%s: %s is %v, not a string", s.name, path, v)
			vars[name] = str
		}
	}
	_, redelivered := received.Load(vars["DELIVERY"])
	require.True(t, redelivered, "the receiver got the delivery")
	n, _ := received.Load(vars["DELIVERY"])
	require.Equal(t, 2, *n.(*int), "delivered, then redelivered under the same webhook-id")

	t.Run("follow", func(t *testing.T) { testFollow(t, d.url, d.url, prog) })
	t.Run("follow across a cut stream", func(t *testing.T) {
		proxy := ssetest.NewCuttingProxy(t, d.url, ssetest.Abruptly)
		testFollow(t, d.url, proxy.URL, prog)
		require.GreaterOrEqual(t, proxy.Streams.Load(), int32(2), "the stream was not opened again after it was cut")
	})
	// A finished run's stream that ends early but cleanly (as a proxy's timeout may end it)
	// is read again: every event is printed.
	t.Run("follow a finished run across a stream that ends early", func(t *testing.T) {
		code, out, errOut := runCLI(t, "1 + 1", "runs", "create", "-", "--wait", "10", "--url", d.url)
		require.Equal(t, ExitOK, code, errOut)
		var run struct{ ID, Status string }
		require.NoError(t, json.Unmarshal([]byte(out), &run))
		require.Equal(t, "succeeded", run.Status)
		proxy := ssetest.NewCuttingProxy(t, d.url, ssetest.Cleanly)
		code, out, errOut = runCLI(t, "", "runs", "events", run.ID, "--follow", "--url", proxy.URL)
		require.Equal(t, ExitOK, code, errOut)
		var seqs []float64
		for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
			var e map[string]any
			require.NoError(t, json.Unmarshal([]byte(line), &e), line)
			seqs = append(seqs, e["seq"].(float64))
		}
		code, out, errOut = runCLI(t, "", "runs", "events", run.ID, "--url", d.url)
		require.Equal(t, ExitOK, code, errOut)
		var listed struct{ Events []struct{ Seq float64 } }
		require.NoError(t, json.Unmarshal([]byte(out), &listed))
		require.Greater(t, len(listed.Events), 1)
		var want []float64
		for _, e := range listed.Events {
			want = append(want, e.Seq)
		}
		require.Equal(t, want, seqs)
		require.EqualValues(t, 2, proxy.Streams.Load())
	})
}

// testFollow runs `runs events --follow` on a run while it is suspended (through followURL,
// the other commands through url), resumes it and checks that every event is printed, one a
// line, and that the command ends with the run.
func testFollow(t *testing.T, url, followURL, prog string) {
	code, out, errOut := runCLI(t, "", "runs", "create", prog, "--toolsets", "ops", "--wait", "10", "--url", url)
	require.Equal(t, ExitOK, code, errOut)
	var run map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &run))
	require.Equal(t, "suspended", run["status"])
	id := run["id"].(string)

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	stdout, stderr := &syncBuffer{}, &syncBuffer{}
	done := make(chan int, 1)
	go func() {
		done <- Run(ctx, []string{"runs", "events", "--follow", id, "--url", followURL},
			Env{Stdout: stdout, Stderr: stderr, Getenv: func(string) string { return "" }})
	}()
	require.Eventually(t, func() bool { return strings.Contains(stdout.String(), `"type":"suspended"`) },
		30*time.Second, 20*time.Millisecond, "the events so far: %s %s", stdout.String(), stderr.String())
	select {
	case code := <-done:
		t.Fatalf("--follow ended (%d) while the run is suspended: %s %s", code, stdout.String(), stderr.String())
	case <-time.After(300 * time.Millisecond):
	}

	code, _, errOut = runCLI(t, "", "calls", "complete", id, "2", "--value", `{"approved":true}`, "--url", url)
	require.Equal(t, ExitOK, code, errOut)
	select {
	case code := <-done:
		require.Equal(t, ExitOK, code, stderr.String())
	case <-time.After(time.Minute):
		t.Fatalf("--follow did not end with the run: %s", stdout.String())
	}
	require.Empty(t, stderr.String())

	// One event a line, in order, the run's whole timeline: what the listing holds.
	lines := strings.Split(strings.TrimSuffix(stdout.String(), "\n"), "\n")
	followed := make([]map[string]any, len(lines))
	for i, line := range lines {
		require.NoError(t, json.Unmarshal([]byte(line), &followed[i]), line)
		require.Equal(t, float64(i+1), followed[i]["seq"], line)
	}
	last := followed[len(followed)-1]
	require.Equal(t, "finished", last["type"])
	require.Equal(t, "succeeded", last["data"].(map[string]any)["status"])
	code, out, errOut = runCLI(t, "", "runs", "events", id, "--url", url)
	require.Equal(t, ExitOK, code, errOut)
	var listed struct{ Events []map[string]any }
	require.NoError(t, json.Unmarshal([]byte(out), &listed))
	require.Equal(t, listed.Events, followed)

	// A finished run: the events after --after, and the command ends at once.
	code, out, errOut = runCLI(t, "", "runs", "events", id, "--follow", "--after", "3", "--url", url)
	require.Equal(t, ExitOK, code, errOut)
	require.Equal(t, strings.Join(lines[3:], "\n")+"\n", out)

	code, out, errOut = runCLI(t, "", "runs", "events", "00000000-0000-0000-0000-000000000000", "--follow", "--url", url)
	require.Equal(t, ExitFailed, code, out)
	require.Contains(t, errOut, "codemode runs events: HTTP 404")
	code, _, errOut = runCLI(t, "", "runs", "events", id, "--follow", "--url", "http://127.0.0.1:1")
	require.Equal(t, ExitFailed, code)
	require.Contains(t, errOut, "no answer from the service at http://127.0.0.1:1")
}

func TestPrintEvents(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, stream, out string
		after, last       int64
	}{
		{name: "events and keep-alives", after: 0, last: 2,
			stream: "id: 1\nevent: created\ndata: {\"seq\":1}\n\n: keep-alive\n\nid: 2\nevent: started\ndata: {\"seq\":2}\n\n",
			out:    "{\"seq\":1}\n{\"seq\":2}\n"},
		{name: "nothing new", after: 7, last: 7, stream: ": keep-alive\n\n", out: ""},
		{name: "seq from the data without an id", after: 3, last: 4, stream: "data: {\"seq\":4}\n\n", out: "{\"seq\":4}\n"},
		{name: "an event printed already is not printed again", after: 2, last: 3,
			stream: "id: 2\ndata: {\"seq\":2}\n\nid: 3\ndata: {\"seq\":3}\n\n", out: "{\"seq\":3}\n"},
		{name: "an event cut short is not printed", after: 1, last: 2,
			stream: "id: 2\ndata: {\"seq\":2}\n\nid: 3\ndata: {\"se", out: "{\"seq\":2}\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var out strings.Builder
			last, err := printEvents(strings.NewReader(tt.stream), &out, tt.after)
			require.NoError(t, err)
			require.Equal(t, tt.last, last)
			require.Equal(t, tt.out, out.String())
		})
	}
}
