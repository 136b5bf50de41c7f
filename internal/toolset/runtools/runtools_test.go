package runtools_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/internal/run"
	"github.com/codemode/codemode/internal/toolcall"
	"github.com/codemode/codemode/internal/toolset"
	"github.com/codemode/codemode/internal/toolset/runtools"
	"github.com/codemode/codemode/internal/toolset/toolsettest"
)

// fast keeps retries quick in tests.
var fast = toolset.Backoff{Initial: time.Millisecond, Max: 5 * time.Millisecond}

type testBundle struct {
	server *toolsettest.Server
	box    *run.Toolbox
}

func setup(t *testing.T, cfg toolset.Config) *testBundle {
	t.Helper()
	srv := toolsettest.New(t, toolsettest.Options{Secret: cfg.Secret})
	cfg.URL = srv.URL
	if cfg.Backoff == (toolset.Backoff{}) {
		cfg.Backoff = fast
	}
	tools, namespaces, err := runtools.Load(context.Background(), cfg)
	require.NoError(t, err)
	box, err := run.NewToolbox(tools, namespaces)
	require.NoError(t, err)
	return &testBundle{server: srv, box: box}
}

func call(runID string, id int64, path string) toolcall.Call {
	return toolcall.Call{RunID: runID, CallID: id, Key: toolcall.Key(runID, id), Path: path}
}

// protocolServer answers every POST with handler and serves a one-tool manifest on GET.
func protocolServer(t *testing.T, handler http.HandlerFunc) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			_, _ = io.WriteString(w, `{"tools":[{"path":"t"}]}`)
			return
		}
		handler(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

func TestLoadMountsManifest(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		mount     string
		wantTool  string
		wantSpace []run.Namespace
	}{
		{name: "root", wantTool: "math.add", wantSpace: []run.Namespace{
			{Path: "approvals", Description: "Human approvals"}, {Path: "math", Description: "Arithmetic"}, {Path: "string", Description: "String utilities"},
		}},
		{name: "named", mount: "ops", wantTool: "ops.math.add", wantSpace: []run.Namespace{
			{Path: "ops", Description: "Operations"}, {Path: "ops.approvals", Description: "Human approvals"},
			{Path: "ops.math", Description: "Arithmetic"}, {Path: "ops.string", Description: "String utilities"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			b := setup(t, toolset.Config{Name: tt.mount, Description: "Operations"})
			tool, ok := b.box.Lookup(tt.wantTool)
			require.True(t, ok)
			require.Equal(t, "Add two numbers", tool.Description)
			require.Contains(t, string(tool.Input), `"required": ["a", "b"]`)
			require.Equal(t, tt.wantSpace, b.box.Namespaces())
			require.Equal(t, 10, b.box.Len())

			approvals := strings.TrimPrefix(tt.wantTool, "math.add") + "approvals.request"
			if tt.mount != "" {
				approvals = "ops.approvals.request"
			}
			d, ok := b.box.Lookup(approvals)
			require.True(t, ok)
			require.NotNil(t, d.Durable)
			require.Nil(t, d.Execute)
			require.Equal(t, 1, b.server.ManifestReads())
		})
	}
}

func TestDurableStartAndCancel(t *testing.T) {
	t.Parallel()
	b := setup(t, toolset.Config{Name: "ops"})
	tool, ok := b.box.Lookup("ops.approvals.request")
	require.True(t, ok)
	c := call("dur", 1, "ops.approvals.request")
	started, err := tool.Durable.Start(context.Background(), json.RawMessage(`{"reason":"deploy"}`), c)
	require.NoError(t, err)
	require.False(t, started.Done)
	require.JSONEq(t, `{"approvalId":"apr_dur:1"}`, string(started.Handle))

	_, err = tool.Durable.Attach(context.Background(), started.Handle, c)
	require.ErrorIs(t, err, run.ErrNotAttachable)

	done, err := tool.Durable.Start(context.Background(), json.RawMessage(`{"reason":"x","autoApprove":true}`), call("dur", 2, "ops.approvals.request"))
	require.NoError(t, err)
	require.True(t, done.Done)
	require.JSONEq(t, `{"approved":true,"by":"auto"}`, string(done.Output))
	require.NoError(t, b.box.ValidateOutput("ops.approvals.request", done.Output))

	require.NoError(t, tool.Durable.Cancel(context.Background(), started.Handle, c))
	cancels := b.server.Cancels()
	require.Len(t, cancels, 1)
	require.Equal(t, "approvals.request", cancels[0].Tool)
	require.Equal(t, "dur:1", cancels[0].Key)
	require.JSONEq(t, `{"approvalId":"apr_dur:1"}`, string(cancels[0].Handle))
}

func TestNonDurable202(t *testing.T) {
	t.Parallel()
	url := protocolServer(t, func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusAccepted)
		_, _ = io.WriteString(w, `{"handle":"h"}`)
	})
	tools, _, err := runtools.Load(context.Background(), toolset.Config{URL: url, Backoff: fast})
	require.NoError(t, err)
	require.Len(t, tools, 1)
	_, err = tools[0].Execute(context.Background(), nil, call("nd", 1, "t"))
	require.ErrorIs(t, err, toolset.ErrProtocol)
}

func TestPlainToolCallsTheToolset(t *testing.T) {
	t.Parallel()
	b := setup(t, toolset.Config{Name: "ops"})
	tool, ok := b.box.Lookup("ops.math.divide")
	require.True(t, ok)
	c := call("plain", 1, "ops.math.divide")
	out, err := tool.Execute(context.Background(), json.RawMessage(`{"a":6,"b":3}`), c)
	require.NoError(t, err)
	require.JSONEq(t, `{"quotient":2}`, string(out))
	_, err = tool.Execute(context.Background(), json.RawMessage(`{"a":1,"b":0}`), call("plain", 2, "ops.math.divide"))
	var te *toolcall.ToolError
	require.ErrorAs(t, err, &te)
	require.Equal(t, "division by zero", te.Message)
	require.Equal(t, 1, b.server.Executions(c.Key))
}

func TestLoadRefuses(t *testing.T) {
	t.Parallel()
	srv := toolsettest.New(t, toolsettest.Options{})
	_, _, err := runtools.Load(context.Background(), toolset.Config{URL: srv.URL, Name: "ops..x"})
	require.ErrorIs(t, err, toolset.ErrInvalidConfig)

	bad := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		_, _ = io.WriteString(w, `{"tools":[{"path":"a..b"}]}`)
	}))
	t.Cleanup(bad.Close)
	_, _, err = runtools.Load(context.Background(), toolset.Config{URL: bad.URL, Backoff: fast})
	require.ErrorIs(t, err, toolset.ErrInvalidManifest)
	require.ErrorIs(t, err, run.ErrInvalidTool)
}
