package api

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/client"
	"github.com/codemode/codemode/internal/durable"
	"github.com/codemode/codemode/internal/egress"
	"github.com/codemode/codemode/internal/pgtest"
	"github.com/codemode/codemode/internal/secretbox"
)

// createdID creates a run of code and returns its id.
func (b *testBundle) createdID(t *testing.T, code string) string {
	t.Helper()
	status, body := b.do(t, http.MethodPost, "/v1/runs", fmt.Sprintf(`{"code":%q}`, code))
	require.Equal(t, http.StatusCreated, status, string(body))
	var run client.Run
	require.NoError(t, json.Unmarshal(body, &run))
	return run.Id
}

// Parameters that are not UTF-8 text, or hold U+0000, cannot reach PostgreSQL (which refused
// them, a 500, or a 422 leaking its message): a path parameter names nothing (404), a query or
// header parameter is a bad request (400). A malformed query string is a bad request too (its
// pairs were dropped: a filter ignored, a limit defaulted).
func TestParametersThatAreNotText(t *testing.T) {
	t.Parallel()
	b := setup(t, false)
	tests := []struct {
		name, method, path, body string
		header                   []string
		want                     int
		wantCode                 string
	}{
		{name: "toolset name U+0000", method: "GET", path: "/v1/toolsets/%00", want: 404, wantCode: CodeNotFound},
		{name: "toolset name not UTF-8", method: "GET", path: "/v1/toolsets/%ff", want: 404, wantCode: CodeNotFound},
		{name: "delete toolset not UTF-8", method: "DELETE", path: "/v1/toolsets/%ff", want: 404, wantCode: CodeNotFound},
		{name: "patch toolset U+0000", method: "PATCH", path: "/v1/toolsets/%00", body: `{}`, want: 404, wantCode: CodeNotFound},
		{name: "redeliver not UTF-8", method: "POST", path: "/v1/webhooks/deliveries/%ff/redeliver", want: 404, wantCode: CodeNotFound},
		{name: "run list toolset U+0000", method: "GET", path: "/v1/runs?toolset=%00", want: 400, wantCode: CodeInvalidRequest},
		{name: "run list toolset not UTF-8", method: "GET", path: "/v1/runs?toolset=%ff", want: 400, wantCode: CodeInvalidRequest},
		{name: "catalog not UTF-8", method: "GET", path: "/v1/catalog?toolsets=%ff", want: 400, wantCode: CodeInvalidRequest},
		{name: "prompt U+0000", method: "GET", path: "/v1/catalog/prompt?toolsets=a%00", want: 400, wantCode: CodeInvalidRequest},
		{name: "malformed escape in a filter", method: "GET", path: "/v1/runs?status=%zz", want: 400, wantCode: CodeInvalidRequest},
		{name: "malformed escape in a limit", method: "GET", path: "/v1/runs?limit=%g1", want: 400, wantCode: CodeInvalidRequest},
		{name: "semicolon separator", method: "GET", path: "/v1/runs?limit=1;limit=2", want: 400, wantCode: CodeInvalidRequest},
		{name: "idempotency key not UTF-8", method: "POST", path: "/v1/runs", body: `{"code":"1"}`, header: []string{"Idempotency-Key", "k\xff\xfe"}, want: 400, wantCode: CodeInvalidRequest},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			status, body := b.do(t, tt.method, tt.path, tt.body, tt.header...)
			require.Equal(t, tt.want, status, string(body))
			code, msg := errorCode(t, body)
			require.Equal(t, tt.wantCode, code)
			require.NotContains(t, msg, "SQLSTATE")
		})
	}
	runs, err := b.client.ListRunsWithResponse(b.ctx, &client.ListRunsParams{})
	require.NoError(t, err)
	require.Empty(t, runs.JSON200.Runs, "nothing was created")
}

// A JSON body is one JSON value: what follows it is not silently dropped.
func TestBodyWithDataAfterItsJSONValue(t *testing.T) {
	t.Parallel()
	b := setup(t, false)
	for _, body := range []string{`{"code":"1"}{"code":"2"}`, `{"code":"1"} x`, `{"code":"1"}]`} {
		status, answer := b.do(t, http.MethodPost, "/v1/runs", body)
		require.Equal(t, http.StatusBadRequest, status, "%s: %s", body, answer)
		code, msg := errorCode(t, answer)
		require.Equal(t, CodeInvalidRequest, code)
		require.Contains(t, msg, "after its JSON value")
	}
	status, answer := b.do(t, http.MethodPost, "/v1/runs", "{\"code\":\"1\"}\n\t ")
	require.Equal(t, http.StatusCreated, status, "trailing white space is fine: %s", answer)
	// JSON is UTF-8: other bytes are refused, not silently replaced with U+FFFD.
	for _, body := range []string{"{\"code\":\"return \xff\"}", "{\"code\":\"1\",\"input\":\"a\xe9b\"}"} {
		status, answer := b.do(t, http.MethodPost, "/v1/runs", body)
		require.Equal(t, http.StatusBadRequest, status, "%q: %s", body, answer)
		code, msg := errorCode(t, answer)
		require.Equal(t, CodeInvalidRequest, code)
		require.Equal(t, "request body is not UTF-8", msg)
	}
	runs, err := b.client.ListRunsWithResponse(b.ctx, &client.ListRunsParams{})
	require.NoError(t, err)
	require.Len(t, runs.JSON200.Runs, 1, "only the well-formed request made a run")
}

// A 405 lists the methods the path has (RFC 9110, section 15.5.6).
func TestMethodNotAllowedListsAllow(t *testing.T) {
	t.Parallel()
	b := setup(t, false)
	for path, want := range map[string]map[string]string{
		"/v1/runs":           {"DELETE": "GET, HEAD, POST", "PUT": "GET, HEAD, POST"},
		"/v1/runs/x/cancel":  {"GET": "POST"},
		"/v1/runs/x/calls/1": {"GET": "POST"},
		"/v1/toolsets/ops":   {"POST": "GET, HEAD, PATCH, DELETE"},
		"/healthz":           {"POST": "GET, HEAD"},
		"/v1/webhooks/x":     {"PUT": "GET, HEAD, PATCH, DELETE"},
	} {
		for method, allow := range want {
			req, err := http.NewRequest(method, b.url+path, nil)
			require.NoError(t, err)
			req.Header.Set("Authorization", "Bearer "+testToken)
			resp, err := http.DefaultClient.Do(req)
			require.NoError(t, err)
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			require.Equal(t, http.StatusMethodNotAllowed, resp.StatusCode, "%s %s: %s", method, path, body)
			require.Equal(t, allow, resp.Header.Get("Allow"), "%s %s", method, path)
			code, _ := errorCode(t, body)
			require.Equal(t, CodeInvalidRequest, code)
		}
	}
}

// HEAD is answered as GET without the body (RFC 9110, section 9.3.2), validated like GET, and
// never streams.
func TestHeadIsGetWithoutBody(t *testing.T) {
	t.Parallel()
	b := setup(t, true)
	id := b.createdID(t, "waits")
	status, body := b.do(t, http.MethodGet, "/v1/runs/"+id+"?wait=10", "")
	require.Equal(t, http.StatusOK, status, string(body))
	head := func(path string, header ...string) *http.Response {
		t.Helper()
		req, err := http.NewRequest(http.MethodHead, b.url+path, nil)
		require.NoError(t, err)
		req.Header.Set("Authorization", "Bearer "+testToken)
		for i := 0; i+1 < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		c := &http.Client{Timeout: 5 * time.Second}
		resp, err := c.Do(req)
		require.NoError(t, err, path)
		resp.Body.Close()
		return resp
	}
	for path, want := range map[string]int{
		"/healthz":                   http.StatusOK,
		"/v1/runs":                   http.StatusOK,
		"/v1/runs/" + id:             http.StatusOK,
		"/v1/runs/" + id + "/calls":  http.StatusOK,
		"/v1/runs/" + id + "/events": http.StatusOK,
		"/v1/runs?limit=0":           http.StatusBadRequest,
		"/v1/runs/" + id + "/cancel": http.StatusMethodNotAllowed,
		"/v1/nothing":                http.StatusNotFound,
	} {
		resp := head(path)
		require.Equal(t, want, resp.StatusCode, path)
	}
	// The events of a suspended run: a stream would never end; HEAD answers at once.
	resp := head("/v1/runs/"+id+"/events", "Accept", "text/event-stream")
	require.Equal(t, http.StatusOK, resp.StatusCode)
	require.Equal(t, "application/json", resp.Header.Get("Content-Type"))
	// Without the token, HEAD is refused like GET.
	req, err := http.NewRequest(http.MethodHead, b.url+"/v1/runs", nil)
	require.NoError(t, err)
	unauth, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	unauth.Body.Close()
	require.Equal(t, http.StatusUnauthorized, unauth.StatusCode)
}

// A client may send any method name; the metrics do not get a series for each.
func TestMetricsMethodLabelIsBounded(t *testing.T) {
	t.Parallel()
	b := setup(t, false)
	for i := range 3 {
		status, _ := b.do(t, fmt.Sprintf("XMETHOD%d", i), "/v1/runs", "")
		require.Equal(t, http.StatusMethodNotAllowed, status)
	}
	status, body := b.do(t, http.MethodGet, "/metrics", "")
	require.Equal(t, http.StatusOK, status)
	require.NotContains(t, string(body), "XMETHOD")
	require.Contains(t, string(body), `codemode_http_requests_total{code="405",method="other",route="unmatched"} 3`)
}

// Without a token the River UI, which reads and changes the job queue, is as closed to other
// names (DNS rebinding) as /v1.
func TestNoTokenChecksHostOfTheRiverUI(t *testing.T) {
	t.Parallel()
	pool, _ := pgtest.NewDB(t)
	store, err := durable.New(pool, durable.Config{Logger: slog.New(slog.DiscardHandler)})
	require.NoError(t, err)
	t.Cleanup(store.Close)
	ui := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { _, _ = io.WriteString(w, `{"data":[]}`) })
	handler, err := New(store, Config{RiverUI: ui})
	require.NoError(t, err)
	srv := httptest.NewServer(handler)
	t.Cleanup(srv.Close)
	_, port, _ := strings.Cut(strings.TrimPrefix(srv.URL, "http://"), ":")
	for _, path := range []string{"/river", "/river/", "/river/api/jobs"} {
		for host, want := range map[string]int{
			"127.0.0.1:" + port:        http.StatusOK,
			"attacker.example:" + port: http.StatusMisdirectedRequest,
		} {
			req, err := http.NewRequest(http.MethodGet, srv.URL+path, nil)
			require.NoError(t, err)
			req.Host = host
			resp, err := http.DefaultClient.Do(req)
			require.NoError(t, err)
			resp.Body.Close()
			require.Equal(t, want, resp.StatusCode, "%s with Host %s", path, host)
		}
	}
}

// URLs the service would call or deliver to must be absolute http(s) URLs with a host; the
// spec's pattern checks only the scheme.
func TestURLsThatCannotBeCalled(t *testing.T) {
	t.Parallel()
	b := setup(t, false)
	status, body := b.do(t, http.MethodPost, "/v1/webhooks", `{"url":"https://example.com/h","secret":"s","events":["run.completed"]}`)
	require.Equal(t, http.StatusCreated, status, string(body))
	var sub client.WebhookSubscription
	require.NoError(t, json.Unmarshal(body, &sub))
	status, body = b.do(t, http.MethodPost, "/v1/toolsets", `{"name":"ops","url":"http://127.0.0.1:1","tools":[{"path":"a.b"}]}`)
	require.Equal(t, http.StatusCreated, status, string(body))

	tests := []struct {
		name, method, path, body, field string
	}{
		{"run webhook with a space", "POST", "/v1/runs", `{"code":"1","webhook":{"url":"http://a b/"}}`, "webhook.url"},
		{"run webhook without host", "POST", "/v1/runs", `{"code":"1","webhook":{"url":"http://"}}`, "webhook.url"},
		{"subscription without host", "POST", "/v1/webhooks", `{"url":"https://","secret":"s","events":["run.completed"]}`, "url"},
		{"subscription bad IPv6", "POST", "/v1/webhooks", `{"url":"http://[::1/","secret":"s","events":["run.completed"]}`, "url"},
		{"subscription update", "PATCH", "/v1/webhooks/" + sub.Id, `{"url":"http://:80/"}`, "url"},
		{"toolset with inline tools", "POST", "/v1/toolsets", `{"name":"t2","url":"http://[::1/","tools":[{"path":"a.b"}]}`, "url"},
		{"toolset fetched", "POST", "/v1/toolsets", `{"name":"t3","url":"http://a b/"}`, "url"},
		{"toolset update", "PATCH", "/v1/toolsets/ops", `{"url":"http://","tools":[{"path":"a.b"}]}`, "url"},
		{"openapi baseUrl", "POST", "/v1/toolsets", `{"name":"t4","kind":"openapi","baseUrl":"http://a b","document":{"openapi":"3.0.3","info":{"title":"x","version":"1"},"paths":{}}}`, "baseUrl"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			status, body := b.do(t, tt.method, tt.path, tt.body)
			require.Equal(t, http.StatusBadRequest, status, string(body))
			code, msg := errorCode(t, body)
			require.Equal(t, CodeInvalidRequest, code)
			require.Contains(t, msg, tt.field+" ")
		})
	}
	got, err := b.client.GetWebhookWithResponse(b.ctx, sub.Id)
	require.NoError(t, err)
	require.Equal(t, "https://example.com/h", got.JSON200.Url, "the subscription is unchanged")
	ts, err := b.client.GetToolsetWithResponse(b.ctx, "ops")
	require.NoError(t, err)
	require.Equal(t, "http://127.0.0.1:1", ts.JSON200.Url, "the toolset is unchanged")
}

// A fork point beyond PostgreSQL's integers is not found (it was a 500).
func TestForkPointBeyondIntegers(t *testing.T) {
	t.Parallel()
	b := setup(t, false)
	id := b.createdID(t, "1")
	for _, body := range []string{`{"afterCall":99999999999}`, `{"fromSnapshot":99999999999999}`} {
		status, answer := b.do(t, http.MethodPost, "/v1/runs/"+id+"/fork", body)
		require.Equal(t, http.StatusNotFound, status, "%s: %s", body, answer)
		code, _ := errorCode(t, answer)
		require.Equal(t, CodeNotFound, code)
	}
}

// A toolset named twice in a catalog filter is one toolset; an unknown one is named alone.
func TestCatalogFilterNames(t *testing.T) {
	t.Parallel()
	b := setup(t, false)
	status, body := b.do(t, http.MethodPost, "/v1/toolsets", `{"name":"ops","url":"http://127.0.0.1:1","tools":[{"path":"a.b"}]}`)
	require.Equal(t, http.StatusCreated, status, string(body))
	for _, path := range []string{"/v1/catalog?toolsets=ops,ops", "/v1/catalog?toolsets=ops,%20ops", "/v1/catalog/prompt?toolsets=ops,ops"} {
		status, body := b.do(t, http.MethodGet, path, "")
		require.Equal(t, http.StatusOK, status, "%s: %s", path, body)
	}
	status, body = b.do(t, http.MethodGet, "/v1/catalog?toolsets=ops,ghost,ghost", "")
	require.Equal(t, http.StatusNotFound, status, string(body))
	_, msg := errorCode(t, body)
	require.Equal(t, "toolset not found: ghost", msg)
}

// "Local" is the process's own zone, not an IANA zone: schedules would tick differently on
// different servers.
func TestScheduleTimezoneLocalIsRefused(t *testing.T) {
	t.Parallel()
	b := setup(t, false)
	status, body := b.do(t, http.MethodPost, "/v1/schedules", `{"code":"1","cron":"@daily","timezone":"Local"}`)
	require.Equal(t, http.StatusBadRequest, status, string(body))
	code, msg := errorCode(t, body)
	require.Equal(t, CodeInvalidRequest, code)
	require.Contains(t, msg, "timezone")
}

// "@every" in cron is held to every's minimum: the cron library reads a shorter or negative
// interval as one second.
func TestScheduleCronEveryBelowTheMinimum(t *testing.T) {
	t.Parallel()
	b := setup(t, false)
	for _, cron := range []string{"@every -1s", "@every 0s", "@every 10ms", " @every  500ms "} {
		status, body := b.do(t, http.MethodPost, "/v1/schedules", fmt.Sprintf(`{"code":"1","cron":%q}`, cron))
		require.Equal(t, http.StatusBadRequest, status, "%q: %s", cron, body)
		code, msg := errorCode(t, body)
		require.Equal(t, CodeInvalidRequest, code)
		require.Contains(t, msg, "at least 1s")
	}
	status, body := b.do(t, http.MethodPost, "/v1/schedules", `{"code":"1","cron":"@every 90s"}`)
	require.Equal(t, http.StatusCreated, status, string(body))
}

// A body that does not arrive in time is answered 400 instead of holding the connection.
func TestSlowBodyTimesOut(t *testing.T) {
	t.Parallel()
	pool, _ := pgtest.NewDB(t)
	store, err := durable.New(pool, durable.Config{Logger: slog.New(slog.DiscardHandler), Egress: egress.Local(), Secrets: secretbox.Ephemeral()})
	require.NoError(t, err)
	t.Cleanup(store.Close)
	handler, err := New(store, Config{Token: testToken, BodyReadTimeout: 300 * time.Millisecond})
	require.NoError(t, err)
	srv := httptest.NewServer(handler)
	t.Cleanup(srv.Close)

	conn, err := net.Dial("tcp", strings.TrimPrefix(srv.URL, "http://"))
	require.NoError(t, err)
	defer conn.Close()
	_, err = fmt.Fprintf(conn, "POST /v1/runs HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"code\":", strings.TrimPrefix(srv.URL, "http://"), testToken)
	require.NoError(t, err)
	require.NoError(t, conn.SetReadDeadline(time.Now().Add(10*time.Second)))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	require.NoError(t, err, "answered before the client's deadline")
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.Equal(t, http.StatusBadRequest, resp.StatusCode, string(body))
	require.Contains(t, string(body), "not received within")

	// A body announced over the limit is refused at once, before it is sent.
	conn2, err := net.Dial("tcp", strings.TrimPrefix(srv.URL, "http://"))
	require.NoError(t, err)
	defer conn2.Close()
	_, err = fmt.Fprintf(conn2, "POST /v1/runs HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", strings.TrimPrefix(srv.URL, "http://"), testToken, 3<<20)
	require.NoError(t, err)
	require.NoError(t, conn2.SetReadDeadline(time.Now().Add(10*time.Second)))
	resp, err = http.ReadResponse(bufio.NewReader(conn2), nil)
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusRequestEntityTooLarge, resp.StatusCode, "not the 400 of a body waited for in vain")

	// A wait, which reads nothing after its body, is not cut by the body's deadline.
	status, created := (&testBundle{url: srv.URL}).do(t, http.MethodPost, "/v1/runs", `{"code":"1"}`)
	require.Equal(t, http.StatusCreated, status, string(created))
	var run client.Run
	require.NoError(t, json.Unmarshal(created, &run))
	start := time.Now()
	status, got := (&testBundle{url: srv.URL}).do(t, http.MethodPost, "/v1/runs?wait=1", `{"code":"2"}`)
	require.Equal(t, http.StatusCreated, status, string(got))
	require.GreaterOrEqual(t, time.Since(start), 900*time.Millisecond, "the wait ran its course")
}

// A toolset whose tools the runtime would refuse once mounted under its name is refused at
// registration: stored, it failed the catalog (500) and every run naming no toolsets (their
// drives failed and were retried for good).
func TestToolsetsTheRuntimeCannotMount(t *testing.T) {
	t.Parallel()
	b := setup(t, false)
	long := strings.Repeat("a", 505) // a valid path alone; over 512 bytes under "longname." (and with 4 more under "ops.")
	deep := strings.Repeat(`{"items":`, 3000) + `{}` + strings.Repeat(`}`, 3000)
	served := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = fmt.Fprintf(w, `{"tools":[{"path":%q}]}`, long)
	}))
	t.Cleanup(served.Close)
	status, body := b.do(t, http.MethodPost, "/v1/toolsets", `{"name":"ops","url":"http://127.0.0.1:1","tools":[{"path":"a.b"}]}`)
	require.Equal(t, http.StatusCreated, status, string(body))

	tests := []struct {
		name, method, path, body string
		want                     int
		wantCode                 string
	}{
		{"name __proto__", "POST", "/v1/toolsets", `{"name":"__proto__","url":"http://127.0.0.1:1","tools":[{"path":"a.b"}]}`, 400, CodeInvalidRequest},
		{"openapi named __proto__", "POST", "/v1/toolsets", `{"name":"__proto__","kind":"openapi","baseUrl":"http://127.0.0.1:1","document":{"openapi":"3.0.3","info":{"title":"x","version":"1"},"paths":{"/x":{"get":{"operationId":"x","responses":{"200":{"description":"ok"}}}}}}}`, 400, CodeInvalidRequest},
		{"inline path too long under the name", "POST", "/v1/toolsets", `{"name":"longname","url":"http://127.0.0.1:1","tools":[{"path":"` + long + `"}]}`, 400, CodeInvalidRequest},
		{"fetched path too long under the name", "POST", "/v1/toolsets", `{"name":"longname","url":"` + served.URL + `"}`, 502, CodeBadGateway},
		{"update with a path too long under the name", "PATCH", "/v1/toolsets/ops", `{"tools":[{"path":"` + long + `xxxx"}]}`, 400, CodeInvalidRequest},
		// Compiling costs the square of the depth, for every run mounting the toolset.
		{"inline schema nested too deep", "POST", "/v1/toolsets", `{"name":"deep","url":"http://127.0.0.1:1","tools":[{"path":"a","input":` + deep + `}]}`, 400, CodeInvalidRequest},
		{"update with a schema nested too deep", "PATCH", "/v1/toolsets/ops", `{"tools":[{"path":"a","input":` + deep + `}]}`, 400, CodeInvalidRequest},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, body := b.do(t, tt.method, tt.path, tt.body)
			require.Equal(t, tt.want, status, string(body))
			code, _ := errorCode(t, body)
			require.Equal(t, tt.wantCode, code)
		})
	}
	status, body = b.do(t, http.MethodGet, "/v1/catalog", "")
	require.Equal(t, http.StatusOK, status, "the catalog of every toolset still reads: %s", body)
	require.Contains(t, string(body), `"path":"ops.a.b"`)
	list, err := b.client.ListToolsetsWithResponse(b.ctx)
	require.NoError(t, err)
	require.Len(t, list.JSON200.Toolsets, 1, "only ops is registered")
}

// Extensions are globals: a second toolset declaring an extension a registered one declares is
// refused (409), registered or updated. Stored, it made every run naming no toolsets fail.
func TestToolsetExtensionDeclaredTwiceIsRefused(t *testing.T) {
	t.Parallel()
	b := setup(t, false)
	manifest := func(ext string) string {
		return `{"tools": [{"path": "a"}], "extensions": [{"name": "` + ext + `", "functions": [{"path": "f"}]}]}`
	}
	serve := func(ext string) string {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			_, _ = fmt.Fprint(w, manifest(ext))
		}))
		t.Cleanup(srv.Close)
		return srv.URL
	}
	fsURL, otherURL := serve("fs"), serve("other")
	status, body := b.do(t, http.MethodPost, "/v1/toolsets", `{"name":"one","url":"`+fsURL+`"}`)
	require.Equal(t, http.StatusCreated, status, string(body))

	status, body = b.do(t, http.MethodPost, "/v1/toolsets", `{"name":"two","url":"`+fsURL+`"}`)
	require.Equal(t, http.StatusConflict, status, string(body))
	code, msg := errorCode(t, body)
	require.Equal(t, CodeConflict, code)
	require.Contains(t, msg, `extension "fs" is declared by toolset "one" too`)

	status, body = b.do(t, http.MethodPost, "/v1/toolsets", `{"name":"two","url":"`+otherURL+`"}`)
	require.Equal(t, http.StatusCreated, status, string(body))
	status, body = b.do(t, http.MethodPatch, "/v1/toolsets/two", `{"url":"`+fsURL+`"}`)
	require.Equal(t, http.StatusConflict, status, string(body))
	// A toolset updated with its own extensions again is no clash with itself.
	status, body = b.do(t, http.MethodPatch, "/v1/toolsets/one", `{"url":"`+fsURL+`"}`)
	require.Equal(t, http.StatusOK, status, string(body))
}

// The server closes keep-alive connections left idle; it never cuts a request that waits or
// streams (no read or write timeout).
func TestServerTimeouts(t *testing.T) {
	srv := newHTTPServer(t.Context(), http.NotFoundHandler())
	require.Positive(t, srv.IdleTimeout, "idle connections are closed")
	require.Positive(t, srv.ReadHeaderTimeout)
	require.Zero(t, srv.ReadTimeout, "a ReadTimeout would cancel long waits and streams")
	require.Zero(t, srv.WriteTimeout, "a WriteTimeout would cut long waits and streams")
}

// A failed outcome carries no value: one that did was recorded (202), refused by the worker
// resuming the run (which could then never resume), and the right outcome was a 409.
func TestFailedOutcomeWithAValueIsRefused(t *testing.T) {
	t.Parallel()
	b := setup(t, true)
	status, body := b.do(t, http.MethodPost, "/v1/runs?wait=30", `{"code":"durable"}`)
	require.Equal(t, http.StatusCreated, status, string(body))
	var run client.Run
	require.NoError(t, json.Unmarshal(body, &run))
	require.Equal(t, client.RunStatusSuspended, run.Status)

	for _, outcome := range []string{
		`{"ok":false,"error":{"message":"no"},"value":{"x":1}}`,
		`{"ok":false,"error":{"message":"no"},"value":0}`,
	} {
		status, body = b.do(t, http.MethodPost, "/v1/runs/"+run.Id+"/calls/1", outcome)
		require.Equal(t, http.StatusBadRequest, status, "%s: %s", outcome, body)
		code, msg := errorCode(t, body)
		require.Equal(t, CodeInvalidRequest, code)
		require.Contains(t, msg, "value")
	}
	status, body = b.do(t, http.MethodPost, "/v1/runs/"+run.Id+"/calls/1", `{"ok":false,"error":{"message":"no"}}`)
	require.Equal(t, http.StatusAccepted, status, "the well-formed outcome is recorded: %s", body)
}

// A tool schema with a reference cycle validation can reach ($ref to itself, $refs leading back
// with no keyword between that descends into the value) is refused at registration, naming the
// tool and the cycle: stored, every call whose input reached the cycle failed with
// InvalidToolInput. A schema recursing through properties or items (a tree) is registered.
func TestToolsetSchemaCycleIsRefused(t *testing.T) {
	t.Parallel()
	b := setup(t, false)
	const pair = `{"$ref":"#/$defs/a","$defs":{"a":{"$ref":"#/$defs/b"},"b":{"$ref":"#/$defs/a"}}}`
	const tree = `{"type":"object","properties":{"children":{"type":"array","items":{"$ref":"#"}}}}`
	served := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = fmt.Fprint(w, `{"tools":[{"path":"x.get","output":`+pair+`}]}`)
	}))
	t.Cleanup(served.Close)
	document := `{"openapi":"3.0.3","info":{"title":"x","version":"1"},"paths":{"/x":{"post":{"operationId":"make",` +
		`"requestBody":{"content":{"application/json":{"schema":{"$ref":"#/components/schemas/A"}}}},"responses":{"200":{"description":"ok"}}}}},` +
		`"components":{"schemas":{"A":{"allOf":[{"$ref":"#/components/schemas/B"}]},"B":{"allOf":[{"$ref":"#/components/schemas/A"}]}}}}`
	status, body := b.do(t, http.MethodPost, "/v1/toolsets", `{"name":"ops","url":"http://127.0.0.1:1","tools":[{"path":"a.b"}]}`)
	require.Equal(t, http.StatusCreated, status, string(body))

	tests := []struct {
		name, method, path, body string
		want                     int
		wantCode                 string
		wantMessage              string
	}{
		{"inline $ref to itself", "POST", "/v1/toolsets", `{"name":"self","url":"http://127.0.0.1:1","tools":[{"path":"a.b","input":{"$ref":"#"}}]}`,
			400, CodeInvalidRequest, `tool a.b: input schema: invalid JSON Schema: reference cycle # -$ref-> #: `},
		{"update with $defs that $ref each other", "PATCH", "/v1/toolsets/ops", `{"tools":[{"path":"a.b","input":` + pair + `}]}`,
			400, CodeInvalidRequest, `tool a.b: input schema: invalid JSON Schema: reference cycle #/$defs/a -$ref-> #/$defs/b -$ref-> #/$defs/a: `},
		{"fetched output schema", "POST", "/v1/toolsets", `{"name":"fetched","url":"` + served.URL + `"}`,
			502, CodeBadGateway, `tool x.get: output schema: invalid JSON Schema: reference cycle #/$defs/a -$ref-> #/$defs/b -$ref-> #/$defs/a: `},
		{"openapi components in a cycle", "POST", "/v1/toolsets", `{"name":"doc","kind":"openapi","baseUrl":"http://127.0.0.1:1","document":` + document + `}`,
			400, CodeInvalidRequest, `tool make: input schema: invalid JSON Schema: reference cycle `},
		{"inline tree", "POST", "/v1/toolsets", `{"name":"tree","url":"http://127.0.0.1:1","tools":[{"path":"a.b","input":` + tree + `,"output":` + tree + `}]}`,
			201, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, body := b.do(t, tt.method, tt.path, tt.body)
			require.Equal(t, tt.want, status, string(body))
			if tt.wantCode == "" {
				return
			}
			code, message := errorCode(t, body)
			require.Equal(t, tt.wantCode, code)
			require.Contains(t, message, tt.wantMessage)
			require.Contains(t, message, "a recursive schema must recurse through such a keyword")
		})
	}
}
