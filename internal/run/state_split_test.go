package run

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestSplitMember(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		data      string
		rest, val string
		ok        bool
	}{
		{name: "last member", data: `{"a":1,"vm":{"x":[1,"}"]}}`, rest: `{"a":1,"vm":null}`, val: `{"x":[1,"}"]}`, ok: true},
		{name: "first member with spaces", data: ` { "vm" : {"s":"\"]"} , "b" : [2] } `, rest: ` { "vm" : null , "b" : [2] } `, val: `{"s":"\"]"}`, ok: true},
		{name: "scalar value", data: `{"vm":7}`, rest: `{"vm":null}`, val: `7`, ok: true},
		{name: "nested name is not the member", data: `{"a":{"vm":1}}`},
		{name: "missing", data: `{"a":1}`},
		{name: "repeated", data: `{"vm":1,"vm":2}`},
		{name: "not an object", data: `[1]`},
		{name: "cut short", data: `{"vm":{"a":1}`},
		{name: "unterminated string", data: `{"vm":"abc}`},
		{name: "trailing data", data: `{"vm":1} x`},
		{name: "empty", data: ``},
		{name: "empty object", data: `{}`},
		{name: "missing colon", data: `{"vm" 1}`},
		{name: "escaped backslashes", data: `{"a":"x\\\\","vm":{"s":"\\\"}\\\\"}}`, rest: `{"a":"x\\\\","vm":null}`, val: `{"s":"\\\"}\\\\"}`, ok: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			rest, val, ok := splitMember([]byte(tt.data), "vm")
			require.Equal(t, tt.ok, ok)
			if tt.ok {
				require.Equal(t, tt.rest, string(rest))
				require.Equal(t, tt.val, string(val))
			}
		})
	}
}

func TestSplitLastMember(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		data       string
		head, tail string
		ok         bool
	}{
		{name: "last member", data: `{"a":[1,{"b":"}"}],"vm":{"x":1}}`, head: `{"a":[1,{"b":"}"}],"vm":null}`, tail: `{"x":1}}`, ok: true},
		{name: "members after it", data: `{"vm":{"x":1},"b":2}`, head: `{"vm":null}`, tail: `{"x":1},"b":2}`, ok: true},
		{name: "spaces", data: ` { "a" : "\\\"" , "vm" : {} } `, head: ` { "a" : "\\\"" , "vm" : null}`, tail: `{} } `, ok: true},
		{name: "missing", data: `{"a":1}`},
		{name: "nested name is not the member", data: `{"a":{"vm":1}}`},
		{name: "not an object", data: `[1]`},
		{name: "cut short", data: `{"a":1,"vm":`},
		{name: "unterminated string", data: `{"a":"x}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			head, tail, ok := splitLastMember([]byte(tt.data), "vm")
			require.Equal(t, tt.ok, ok)
			if tt.ok {
				require.Equal(t, tt.head, string(head))
				require.Equal(t, tt.tail, string(tail))
			}
		})
	}
}
