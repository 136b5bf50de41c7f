package run

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/internal/interp"
)

// stateFile is how the tests' data files hold a two-part state: {"header": ..., "vm": ...},
// or {"header": ..., "vmBinary": base64} when the interpreter's snapshot is binary (format 2).
// A file of the one-document form (format 1) has no "header" member.
type stateFile struct {
	Header   json.RawMessage `json:"header"`
	VM       json.RawMessage `json:"vm,omitempty"`
	VMBinary []byte          `json:"vmBinary,omitempty"`
}

// parseStateFile reads a state as the tests' data files hold it.
func parseStateFile(t testing.TB, data []byte) SavedState {
	t.Helper()
	var f stateFile
	require.NoError(t, json.Unmarshal(data, &f))
	if len(f.Header) == 0 {
		return SavedState{VM: data}
	}
	if len(f.VMBinary) > 0 {
		return SavedState{Header: f.Header, VM: f.VMBinary}
	}
	return SavedState{Header: f.Header, VM: f.VM}
}

// stateFileOf is the data-file form of a state.
func stateFileOf(t testing.TB, s SavedState) []byte {
	t.Helper()
	if len(s.Header) == 0 {
		return s.VM
	}
	f := stateFile{Header: s.Header, VM: s.VM}
	if interp.SnapshotFormatOf(s.VM) == 2 {
		f = stateFile{Header: s.Header, VMBinary: s.VM}
	}
	b, err := json.Marshal(f)
	require.NoError(t, err)
	return b
}
