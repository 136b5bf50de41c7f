package run

// The compatibility suite: programs whose host-visible outcome — value, diagnostic kind and
// message keywords, logs, warnings, tool calls — follows the code-mode contract codemode
// implements (docs/language.md, where each deliberate difference is listed). The cases live
// in testdata/compat/*.json; every case runs twice, plainly and in roundtrip mode (the run
// saved and restored as it goes), and must give the same outcome both ways.

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/internal/toolcall"
)

// compatCase is one program and what its Result must show. Absent fields are not checked,
// except warnings: a case without "warnings" expects none.
type compatCase struct {
	Name string `json:"name"`
	Code string `json:"code"`
	// Limits apply to the run (timeoutMs, maxToolCalls, maxOutputBytes, maxMemoryBytes).
	Limits Limits `json:"limits"`
	// Value is the JSON of the result of a successful run.
	Value json.RawMessage `json:"value"`
	// Kind is the diagnostic kind of a failed run ("" for success).
	Kind Kind `json:"kind"`
	// Message lists substrings of the diagnostic's message.
	Message []string `json:"message"`
	// Logs are the console lines, exactly.
	Logs []string `json:"logs"`
	// Warnings are the warnings' kinds, in order; WarningText lists substrings of their
	// messages (all of them joined).
	Warnings    []Kind   `json:"warnings"`
	WarningText []string `json:"warningText"`
	// Calls are "path:status" of every tool call, in call order.
	Calls []string `json:"calls"`
	// Truncated is the Result's truncated flag.
	Truncated bool `json:"truncated"`
}

// compatTools are the tools the cases call, under the namespaces host and orders.
func compatTools() []Tool {
	sleep := func(ctx context.Context, d time.Duration) error {
		select {
		case <-time.After(d):
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return []Tool{
		{Path: "host.echo", Description: "Answer with the input's id.",
			Execute: func(_ context.Context, input json.RawMessage, _ toolcall.Call) (json.RawMessage, error) {
				var in struct{ ID json.RawMessage }
				_ = json.Unmarshal(input, &in)
				if in.ID == nil {
					return json.RawMessage("null"), nil
				}
				return in.ID, nil
			}},
		{Path: "host.fail", Description: "Always refuses.",
			Execute: func(context.Context, json.RawMessage, toolcall.Call) (json.RawMessage, error) {
				return nil, &toolcall.ToolError{Message: "Lookup refused"}
			}},
		{Path: "host.pending", Description: "Never answers.",
			Execute: func(ctx context.Context, _ json.RawMessage, _ toolcall.Call) (json.RawMessage, error) {
				<-ctx.Done()
				return nil, ctx.Err()
			}},
		{Path: "host.slow", Description: "Answer with value after ms milliseconds.",
			Execute: func(ctx context.Context, input json.RawMessage, _ toolcall.Call) (json.RawMessage, error) {
				var in struct {
					Ms    int
					Value json.RawMessage
				}
				_ = json.Unmarshal(input, &in)
				if err := sleep(ctx, time.Duration(in.Ms)*time.Millisecond); err != nil {
					return nil, err
				}
				if in.Value == nil {
					return json.RawMessage("null"), nil
				}
				return in.Value, nil
			}},
		{Path: "host.input", Description: "Answer with the input as the tool received it.",
			Execute: func(_ context.Context, input json.RawMessage, _ toolcall.Call) (json.RawMessage, error) {
				return input, nil
			}},
		{Path: "host.badOutput", Description: "Answers against its output schema.",
			Output: json.RawMessage(`{"type":"string"}`),
			Execute: func(context.Context, json.RawMessage, toolcall.Call) (json.RawMessage, error) {
				return json.RawMessage(`42`), nil
			}},
		{Path: "orders.lookup", Description: "Look up an order by id.",
			Input:  json.RawMessage(`{"type":"object","properties":{"id":{"type":"string"}},"required":["id"],"additionalProperties":false}`),
			Output: json.RawMessage(`{"type":"object","properties":{"id":{"type":"string"},"status":{"type":"string"}},"required":["id","status"]}`),
			Execute: func(_ context.Context, input json.RawMessage, _ toolcall.Call) (json.RawMessage, error) {
				var in struct{ ID string }
				_ = json.Unmarshal(input, &in)
				return json.Marshal(map[string]string{"id": in.ID, "status": "open"})
			}},
		{Path: "orders.list", Description: "List orders.",
			Execute: func(context.Context, json.RawMessage, toolcall.Call) (json.RawMessage, error) {
				return json.RawMessage(`[{"id":"a","total":5,"status":"open"},{"id":"b","total":12,"status":"closed"},{"id":"c","total":7,"status":"open"}]`), nil
			}},
	}
}

func loadCompatCases(t *testing.T) map[string][]compatCase {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "compat", "*.json"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	out := map[string][]compatCase{}
	names := map[string]bool{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		var cases []compatCase
		dec := json.NewDecoder(strings.NewReader(string(data)))
		dec.DisallowUnknownFields()
		require.NoError(t, dec.Decode(&cases), f)
		area := strings.TrimSuffix(filepath.Base(f), ".json")
		for _, c := range cases {
			key := area + "/" + c.Name
			require.False(t, names[key], "duplicate case %s", key)
			names[key] = true
			require.True(t, (c.Kind == "") == (c.Value != nil), "%s: a case expects a value or a kind", key)
		}
		out[area] = cases
	}
	return out
}

// compatMinCases keeps the suite from shrinking unnoticed.
const compatMinCases = 100

func TestCompat(t *testing.T) {
	t.Parallel()
	all := loadCompatCases(t)
	total := 0
	for _, cases := range all {
		total += len(cases)
	}
	require.GreaterOrEqual(t, total, compatMinCases)
	for area, cases := range all {
		for _, c := range cases {
			for _, mode := range []string{"normal", "roundtrip"} {
				t.Run(area+"/"+c.Name+"/"+mode, func(t *testing.T) {
					t.Parallel()
					rt, err := New(Options{Tools: compatTools(), Limits: c.Limits, RoundTrip: mode == "roundtrip"})
					require.NoError(t, err)
					ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
					defer cancel()
					e, err := rt.Execute(ctx, c.Code, ExecOptions{RunID: "compat"})
					require.NoError(t, err)
					res, done := e.Result()
					require.True(t, done, "the run is %s", e.State())
					checkCompat(t, c, res)
				})
			}
		}
	}
}

func checkCompat(t *testing.T, c compatCase, res *Result) {
	t.Helper()
	out, _ := json.Marshal(res)
	if c.Kind == "" {
		require.True(t, res.OK, "expected success: %s", out)
		require.JSONEq(t, string(c.Value), string(res.Value), "%s", out)
	} else {
		require.False(t, res.OK, "expected %s: %s", c.Kind, out)
		require.Equal(t, c.Kind, res.Error.Kind, "%s", out)
		for _, m := range c.Message {
			require.Contains(t, res.Error.Message, m, "%s", out)
		}
	}
	if c.Logs != nil {
		require.Equal(t, c.Logs, res.Logs, "%s", out)
	}
	var kinds []Kind
	var text []string
	for _, w := range res.Warnings {
		kinds = append(kinds, w.Kind)
		text = append(text, w.Message)
	}
	require.Equal(t, c.Warnings, kinds, "warnings: %s", out)
	for _, m := range c.WarningText {
		require.Contains(t, strings.Join(text, "\n"), m, "%s", out)
	}
	if c.Calls != nil {
		var calls []string
		for _, tc := range res.ToolCalls {
			calls = append(calls, tc.Path+":"+string(tc.Status))
		}
		if calls == nil {
			calls = []string{}
		}
		require.Equal(t, c.Calls, calls, "%s", out)
	}
	require.Equal(t, c.Truncated, res.Truncated, "%s", out)
}
