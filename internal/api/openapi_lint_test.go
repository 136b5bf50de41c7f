package api

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestOpenAPIDocumentLints runs Redocly's linter (pinned in api/lint, installed with npm ci
// when missing) on api/openapi.yaml with api/redocly.yaml: no error and no warning.
func TestOpenAPIDocumentLints(t *testing.T) {
	t.Parallel()
	lintDir, err := filepath.Abs(filepath.Join("..", "..", "api", "lint"))
	require.NoError(t, err)
	if _, err := exec.LookPath("node"); err != nil {
		t.Fatalf("node is required to lint the OpenAPI document with @redocly/cli (install Node.js 20 or later): %v", err)
	}
	redocly := filepath.Join(lintDir, "node_modules", ".bin", "redocly")
	if _, err := os.Stat(redocly); err != nil {
		npm, err := exec.LookPath("npm")
		require.NoError(t, err, "npm is required to install @redocly/cli in %s", lintDir)
		cmd := exec.Command(npm, "ci", "--no-audit", "--no-fund", "--loglevel=error")
		cmd.Dir = lintDir
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "npm ci in %s: %s", lintDir, out)
	}
	cmd := exec.Command(redocly, "lint", "--config", "../redocly.yaml", "--format=json", "../openapi.yaml")
	cmd.Dir = lintDir
	cmd.Env = append(os.Environ(), "REDOCLY_TELEMETRY=off", "REDOCLY_SUPPRESS_UPDATE_NOTICE=true")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, "redocly lint: %s%s", out, stderr.String())
	var report struct {
		Totals struct {
			Errors, Warnings int
		} `json:"totals"`
		Problems []struct {
			RuleID  string `json:"ruleId"`
			Message string `json:"message"`
		} `json:"problems"`
	}
	require.NoError(t, json.Unmarshal(out, &report), "%s", out)
	require.Empty(t, report.Problems, "redocly lint found problems: %+v", report.Problems)
	require.Zero(t, report.Totals.Errors+report.Totals.Warnings, "%s", out)
}
