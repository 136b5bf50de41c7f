package api

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// A run created with a webhook shows its URL wherever the run is read (the create answer,
// GET, the list), and never its secret; a run without one shows no webhook.
func TestRunShowsItsWebhookURLNotItsSecret(t *testing.T) {
	t.Parallel()
	b := setup(t, false)
	const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
	status, body := b.do(t, http.MethodPost, "/v1/runs",
		`{"code":"return 1","webhook":{"url":"http://127.0.0.1:1/hooks","secret":"`+secret+`"}}`)
	require.Equal(t, http.StatusCreated, status, string(body))
	var run struct {
		ID      string `json:"id"`
		Webhook *struct {
			URL string `json:"url"`
		} `json:"webhook"`
	}
	require.NoError(t, json.Unmarshal(body, &run))
	require.NotNil(t, run.Webhook, string(body))
	require.Equal(t, "http://127.0.0.1:1/hooks", run.Webhook.URL)
	for _, path := range []string{"/v1/runs", "/v1/runs/" + run.ID} {
		status, body := b.do(t, http.MethodGet, path, "")
		require.Equal(t, http.StatusOK, status, string(body))
		require.Contains(t, string(body), `"webhook":{"url":"http://127.0.0.1:1/hooks"}`, path)
		require.False(t, strings.Contains(string(body), "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"), "%s shows the secret: %s", path, body)
	}
	require.False(t, strings.Contains(string(body), "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"))

	status, body = b.do(t, http.MethodPost, "/v1/runs", `{"code":"return 2"}`)
	require.Equal(t, http.StatusCreated, status, string(body))
	require.NotContains(t, string(body), `"webhook"`)
}
