package signing

import (
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// nodeDir holds the pinned standardwebhooks npm package (package.json and package-lock.json).
var nodeDir = filepath.Join("testdata", "node")

var npmOnce sync.Once

// node returns the path of node after installing the pinned packages with npm ci when they
// are not installed yet. Node is a requirement of this test: its absence fails it.
func node(t *testing.T) string {
	t.Helper()
	nodePath, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("node is required to check the signer against the standardwebhooks npm package (install Node.js 18 or later): %v", err)
	}
	var installErr error
	npmOnce.Do(func() {
		if _, err := os.Stat(filepath.Join(nodeDir, "node_modules", "standardwebhooks", "package.json")); err == nil {
			return
		}
		npm, err := exec.LookPath("npm")
		if err != nil {
			installErr = err
			return
		}
		cmd := exec.Command(npm, "ci", "--no-audit", "--no-fund", "--loglevel=error")
		cmd.Dir = nodeDir
		if out, err := cmd.CombinedOutput(); err != nil {
			installErr = &exec.Error{Name: "npm ci: " + string(out), Err: err}
		}
	})
	if installErr != nil {
		t.Fatalf("installing the standardwebhooks npm package in %s with npm ci failed: %v", nodeDir, installErr)
	}
	return nodePath
}

type nodeCase struct {
	Secret    string            `json:"secret"`
	ID        string            `json:"id"`
	Timestamp int64             `json:"timestamp"`
	Body      []byte            `json:"body"`
	Headers   map[string]string `json:"headers"`
}

type nodeResult struct {
	Verified  bool   `json:"verified"`
	Error     string `json:"error"`
	Signature string `json:"signature"`
}

// The signer agrees with an independent implementation of Standard Webhooks (the
// standardwebhooks npm package, run by node): node verifies what Go signs, and signs the same
// message to the same signature, for whsec_ secrets and raw secrets, including a raw secret
// that is also valid base64 (used as raw bytes, never decoded).
func TestSignerMatchesStandardWebhooksNode(t *testing.T) {
	nodePath := node(t)
	secrets := []string{
		"whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
		"whsec_c2Vjb25k",
		"topsecret",
		"abcd1234",          // valid base64, still raw bytes
		"c2VjcmV0LWtleQ==",  // valid base64 with padding, still raw bytes
		"pässwörd ✓ secret", // non-ASCII raw bytes (UTF-8)
	}
	bodies := [][]byte{
		[]byte(`{"tool":"math.add","input":{"a":1,"b":2},"key":"r:1","runId":"r"}`),
		[]byte(`{"type":"run.completed","data":{"text":"é ✓ \u0000 😀"}}`),
		[]byte(`{}`),
	}
	now := time.Now()
	var cases []nodeCase
	for _, s := range secrets {
		k, err := ParseSecret(s)
		require.NoError(t, err, s)
		for i, body := range bodies {
			id := "msg_" + string(rune('a'+i)) + ":cancel"
			h := http.Header{}
			require.NoError(t, k.Sign(h, id, now, body))
			cases = append(cases, nodeCase{Secret: s, ID: id, Timestamp: now.Unix(), Body: body, Headers: map[string]string{
				HeaderID: h.Get(HeaderID), HeaderTimestamp: h.Get(HeaderTimestamp), HeaderSignature: h.Get(HeaderSignature),
			}})
		}
	}
	in, err := json.Marshal(map[string]any{"cases": cases})
	require.NoError(t, err)
	cmd := exec.Command(nodePath, "check.js")
	cmd.Dir = nodeDir
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, "node: %s", stderr.String())
	var results []nodeResult
	require.NoError(t, json.Unmarshal(out, &results))
	require.Len(t, results, len(cases))
	for i, r := range results {
		c := cases[i]
		require.True(t, r.Verified, "node refused the Go signature (secret %q, body %s): %s", c.Secret, c.Body, r.Error)
		require.Equal(t, c.Headers[HeaderSignature], r.Signature, "node signs differently (secret %q, body %s)", c.Secret, c.Body)
		// And Go verifies what node signed.
		k, err := ParseSecret(c.Secret)
		require.NoError(t, err)
		h := http.Header{}
		h.Set(HeaderID, c.ID)
		h.Set(HeaderTimestamp, c.Headers[HeaderTimestamp])
		h.Set(HeaderSignature, r.Signature)
		require.NoError(t, k.Verify(h, c.Body))
	}
}
