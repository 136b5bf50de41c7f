// Command webhook-receiver is an example receiver of codemode's webhooks (docs/webhooks.md),
// using only the Go standard library. It checks each delivery's Standard Webhooks signature
// and, for every call.pending event, approves the call by posting {"ok": true, "value":
// {"approved": true, "by": "webhook-receiver"}} to the payload's outcomeUrl. A real approver
// would ask someone first; the rest is what any receiver needs.
//
// Environment:
//
//	WEBHOOK_SECRET      the webhook's secret ("whsec_<base64>", or raw text); required
//	CODEMODE_URL        the API's base URL, which outcomeUrl is relative to (default http://127.0.0.1:8080)
//	CODEMODE_API_TOKEN  the API's bearer token, if it has one
//	LISTEN              the address to listen on (default 127.0.0.1:8090; port 0 picks one)
//
// It prints "listening on http://ADDR" once it accepts deliveries.
package main

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"
)

// tolerance is how far a delivery's timestamp may be from now: older signed deliveries are
// refused, so that a captured one cannot be replayed later.
const tolerance = 5 * time.Minute

func main() {
	secret := os.Getenv("WEBHOOK_SECRET")
	if secret == "" {
		log.Fatal("WEBHOOK_SECRET is required")
	}
	key, err := secretKey(secret)
	if err != nil {
		log.Fatal(err)
	}
	base := strings.TrimSuffix(envOr("CODEMODE_URL", "http://127.0.0.1:8080"), "/")
	r := &receiver{key: key, base: base, token: os.Getenv("CODEMODE_API_TOKEN"), client: &http.Client{Timeout: 10 * time.Second}}
	ln, err := net.Listen("tcp", envOr("LISTEN", "127.0.0.1:8090"))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("listening on http://%s\n", ln.Addr())
	srv := &http.Server{Handler: r, ReadHeaderTimeout: 10 * time.Second}
	log.Fatal(srv.Serve(ln))
}

func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

// secretKey is the HMAC key of a secret: the bytes after "whsec_", base64-decoded, or the raw
// text of a secret without the prefix.
func secretKey(secret string) ([]byte, error) {
	if rest, ok := strings.CutPrefix(secret, "whsec_"); ok {
		key, err := base64.StdEncoding.DecodeString(rest)
		if err != nil {
			return nil, fmt.Errorf("WEBHOOK_SECRET: not base64 after whsec_: %w", err)
		}
		return key, nil
	}
	return []byte(secret), nil
}

type receiver struct {
	key    []byte
	base   string
	token  string
	client *http.Client
}

// payload is a delivery's body (WebhookPayload in api/openapi.yaml).
type payload struct {
	Type string `json:"type"`
	Data struct {
		RunID      string          `json:"runId"`
		CallID     int             `json:"callId"`
		Path       string          `json:"path"`
		Args       json.RawMessage `json:"args"`
		OutcomeURL string          `json:"outcomeUrl"`
	} `json:"data"`
}

func (r *receiver) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	if req.Method != http.MethodPost {
		http.Error(w, "POST only", http.StatusMethodNotAllowed)
		return
	}
	body, err := io.ReadAll(io.LimitReader(req.Body, 1<<20))
	if err != nil {
		http.Error(w, "read body", http.StatusBadRequest)
		return
	}
	if err := verify(r.key, req.Header, body, time.Now()); err != nil {
		log.Printf("refused a delivery: %v", err)
		http.Error(w, "bad signature", http.StatusUnauthorized)
		return
	}
	var p payload
	if err := json.Unmarshal(body, &p); err != nil {
		http.Error(w, "bad payload", http.StatusBadRequest)
		return
	}
	log.Printf("%s %s", req.Header.Get("webhook-id"), p.Type)
	if p.Type == "call.pending" {
		// An error answer makes codemode deliver again later, so a failed approval is retried.
		if err := r.approve(p); err != nil {
			log.Printf("approve call %d of run %s: %v", p.Data.CallID, p.Data.RunID, err)
			http.Error(w, "could not post the outcome", http.StatusBadGateway)
			return
		}
		log.Printf("approved call %d (%s) of run %s", p.Data.CallID, p.Data.Path, p.Data.RunID)
	}
	w.WriteHeader(http.StatusNoContent)
}

// approve posts the call's outcome. 202 (recorded) and 200 (the same outcome was recorded
// before: this delivery is a retry) both mean done.
func (r *receiver) approve(p payload) error {
	outcome, _ := json.Marshal(map[string]any{"ok": true, "value": map[string]any{"approved": true, "by": "webhook-receiver"}})
	req, err := http.NewRequest(http.MethodPost, r.base+p.Data.OutcomeURL, bytes.NewReader(outcome))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	if r.token != "" {
		req.Header.Set("Authorization", "Bearer "+r.token)
	}
	resp, err := r.client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusAccepted && resp.StatusCode != http.StatusOK {
		answer, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
		return fmt.Errorf("POST %s: %s: %s", p.Data.OutcomeURL, resp.Status, answer)
	}
	return nil
}

// verify checks a Standard Webhooks signature: webhook-signature holds space-separated
// "v1,<base64 HMAC-SHA256>" signatures of "<webhook-id>.<webhook-timestamp>.<body>"; one must
// match, and the timestamp must be within tolerance of now.
func verify(key []byte, h http.Header, body []byte, now time.Time) error {
	id, ts, sigs := h.Get("webhook-id"), h.Get("webhook-timestamp"), h.Get("webhook-signature")
	if id == "" || ts == "" || sigs == "" {
		return errors.New("missing webhook-id, webhook-timestamp or webhook-signature")
	}
	secs, err := strconv.ParseInt(ts, 10, 64)
	if err != nil {
		return fmt.Errorf("webhook-timestamp %q: %w", ts, err)
	}
	if d := now.Sub(time.Unix(secs, 0)); d > tolerance || d < -tolerance {
		return fmt.Errorf("webhook-timestamp %s is too far from now", ts)
	}
	mac := hmac.New(sha256.New, key)
	fmt.Fprintf(mac, "%s.%s.", id, ts)
	mac.Write(body)
	want := mac.Sum(nil)
	for _, sig := range strings.Fields(sigs) {
		version, value, ok := strings.Cut(sig, ",")
		if !ok || version != "v1" {
			continue
		}
		got, err := base64.StdEncoding.DecodeString(value)
		if err == nil && hmac.Equal(got, want) {
			return nil
		}
	}
	return errors.New("no webhook-signature matches")
}
