package run

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/require"
)

func TestResultJSON(t *testing.T) {
	t.Parallel()
	ms := int64(12)
	calls := []ToolCallRecord{
		{CallID: 1, Key: "r:1", Path: "math.add", Status: CallSucceeded, DurationMs: &ms},
		{CallID: 2, Key: "r:2", Path: "approvals.request", Status: CallCancelled, Durable: true},
		{CallID: 3, Key: "r:3", Path: "math.div", Status: CallFailed, Error: "division by zero"},
	}
	tests := []struct {
		name   string
		result Result
		want   string
	}{
		{name: "success minimal", result: Result{OK: true, Value: json.RawMessage(`42`)}, want: `{"ok":true,"value":42,"toolCalls":[]}`},
		{name: "success null value", result: Result{OK: true}, want: `{"ok":true,"value":null,"toolCalls":[]}`},
		{name: "success full", result: Result{
			OK: true, Value: json.RawMessage(`{"a":[1]}`), Logs: []string{"hi"},
			Warnings:  []Warning{{Kind: KindToolFailure, Message: "unawaited rejection: boom", Line: 3, Column: 1}},
			Truncated: true, ToolCalls: calls,
		}, want: `{"ok":true,"value":{"a":[1]},"logs":["hi"],"warnings":[{"kind":"ToolFailure","message":"unawaited rejection: boom","line":3,"column":1}],"truncated":true,
			"toolCalls":[{"callId":1,"key":"r:1","path":"math.add","status":"succeeded","durationMs":12},
			{"callId":2,"key":"r:2","path":"approvals.request","status":"cancelled","durable":true},
			{"callId":3,"key":"r:3","path":"math.div","status":"failed","error":"division by zero"}]}`},
		{name: "failure", result: Result{
			OK: false, Value: json.RawMessage(`1`), Error: &Diagnostic{Kind: KindUnknownTool, Message: "tools.x is not a tool", Line: 2, Column: 7},
			Logs: []string{"a"}, Warnings: []Warning{{Kind: KindTruncated, Message: "x"}}, Truncated: true,
		}, want: `{"ok":false,"error":{"kind":"UnknownTool","message":"tools.x is not a tool","line":2,"column":7},"logs":["a"],"toolCalls":[]}`},
		{name: "failure without position", result: Result{Error: &Diagnostic{Kind: KindTimeoutExceeded, Message: "timeout"}},
			want: `{"ok":false,"error":{"kind":"TimeoutExceeded","message":"timeout"},"toolCalls":[]}`},
		{name: "failure without diagnostic", result: Result{}, want: `{"ok":false,"error":{"kind":"ExecutionFailure","message":"run failed"},"toolCalls":[]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			b, err := json.Marshal(tt.result)
			require.NoError(t, err)
			require.JSONEq(t, tt.want, string(b))

			var back Result
			require.NoError(t, json.Unmarshal(b, &back))
			again, err := json.Marshal(back)
			require.NoError(t, err)
			require.JSONEq(t, tt.want, string(again))
		})
	}
}

func TestDiagnosticError(t *testing.T) {
	t.Parallel()
	var err error = &Diagnostic{Kind: KindParseError, Message: "unexpected token at 1:5", Line: 1, Column: 5}
	require.Equal(t, "ParseError: unexpected token at 1:5", err.Error())
}

func TestLimitOutput(t *testing.T) {
	t.Parallel()
	big := json.RawMessage(`"` + strings.Repeat("x", 200) + `"`)
	tests := []struct {
		name          string
		result        Result
		max           int64
		wantCut       bool
		wantValue     string
		wantLogs      []string
		wantTruncWarn bool
	}{
		{name: "no limit", result: Result{OK: true, Value: big}, max: 0, wantValue: string(big)},
		{name: "fits", result: Result{OK: true, Value: json.RawMessage(`[1,2]`), Logs: []string{"a"}}, max: 100, wantValue: `[1,2]`, wantLogs: []string{"a"}},
		{name: "value cut", result: Result{OK: true, Value: json.RawMessage(`{"k":"` + strings.Repeat("y", 100) + `"}`)}, max: 40,
			wantCut: true, wantValue: `"{\"k\":\"yyyyyyyyyyyyyyy…[truncated]"`, wantTruncWarn: true},
		{name: "logs cut after value", result: Result{OK: true, Value: json.RawMessage(`1`), Logs: []string{"aaaa", "bbbb", "cccc"}}, max: 14,
			wantCut: true, wantValue: `1`, wantLogs: []string{"aaaa", "bbbb", "…[1 log lines truncated]"}, wantTruncWarn: true},
		{name: "failure logs cut, no warning", result: Result{Error: &Diagnostic{Kind: KindExecutionFailure, Message: "x"}, Logs: []string{"aaaa", "bbbb"}}, max: 7,
			wantCut: true, wantLogs: []string{"aaaa", "…[1 log lines truncated]"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := tt.result
			require.Equal(t, tt.wantCut, r.LimitOutput(tt.max))
			if tt.wantValue != "" {
				require.Equal(t, tt.wantValue, string(r.Value))
				require.True(t, json.Valid(r.Value))
			}
			require.Equal(t, tt.wantLogs, r.Logs)
			require.Equal(t, tt.wantTruncWarn, r.Truncated)
			if tt.wantTruncWarn {
				require.Equal(t, KindTruncated, r.Warnings[len(r.Warnings)-1].Kind)
				require.LessOrEqual(t, int64(len(r.Value)), tt.max)
			} else {
				require.Empty(t, r.Warnings)
			}
		})
	}
}

func TestLimitOutputUTF8(t *testing.T) {
	t.Parallel()
	value, err := json.Marshal(strings.Repeat("é😀", 50))
	require.NoError(t, err)
	for max := int64(16); max < 80; max++ {
		r := Result{OK: true, Value: value}
		require.True(t, r.LimitOutput(max))
		require.LessOrEqual(t, int64(len(r.Value)), max, "max %d", max)
		var s string
		require.NoError(t, json.Unmarshal(r.Value, &s))
		require.True(t, utf8.ValidString(s))
		require.True(t, strings.HasSuffix(s, "…[truncated]"))
	}
}
