package e2e

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestExampleWebhookReceiverApproves runs examples/webhook-receiver as a process against the
// service: a run waits on a durable approval, its webhook delivers call.pending to the
// receiver, which checks the signature and posts the approval, and the run succeeds.
func TestExampleWebhookReceiverApproves(t *testing.T) {
	t.Parallel()
	s := setup(t)
	code, body := s.api.do("POST", "/v1/toolsets", map[string]any{"name": "ops", "url": s.toolsURL})
	require.Equal(t, http.StatusCreated, code, "%v", body)

	const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
	receiver := start(t, "webhook-receiver", []string{"WEBHOOK_SECRET=" + secret, "CODEMODE_URL=" + s.api.base, "LISTEN=127.0.0.1:0"})
	receiverURL := strings.TrimSpace(strings.TrimPrefix(receiver.waitOutput(t, "listening on "), "listening on "))

	code, run := s.api.do("POST", "/v1/runs", map[string]any{
		"code":    `const r = await tools.ops.approvals.request({reason: "deploy"}); return {approved: r.approved, by: r.by}`,
		"webhook": map[string]any{"url": receiverURL, "secret": secret},
	})
	require.Equal(t, http.StatusCreated, code, "%v", run)
	id := run["id"].(string)

	deadline := time.Now().Add(60 * time.Second)
	for run["status"] != "succeeded" && run["status"] != "failed" && time.Now().Before(deadline) {
		_, run = s.api.do("GET", "/v1/runs/"+id+"?wait=10", nil)
	}
	require.Equal(t, "succeeded", run["status"], "%v", run)
	result := run["result"].(map[string]any)
	require.Equal(t, map[string]any{"approved": true, "by": "webhook-receiver"}, result["value"])
	receiver.waitOutput(t, "approved call 1 (ops.approvals.request) of run "+id)

	// A delivery with a wrong signature is refused.
	req, err := http.NewRequest(http.MethodPost, receiverURL, strings.NewReader(`{"type":"call.pending","data":{}}`))
	require.NoError(t, err)
	req.Header.Set("webhook-id", "msg_1")
	req.Header.Set("webhook-timestamp", "1")
	req.Header.Set("webhook-signature", "v1,AAAA")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusUnauthorized, resp.StatusCode)
}
