package api

import (
	"net/http"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/internal/api/gen"
)

// Every /v1 operation declares the statuses the server can answer it with: 401 (token), 421
// (host check) and 500 always; 400 when it takes query or header parameters or a body (they
// are validated); 413 with a body (size limit); 404 when it names something by path.
func TestSpecDeclaresEveryStatus(t *testing.T) {
	doc, err := gen.GetSwagger()
	require.NoError(t, err)
	var missing []string
	for path, item := range doc.Paths.Map() {
		if !strings.HasPrefix(path, "/v1/") {
			continue
		}
		for method, op := range item.Operations() {
			want := []string{"401", "421", "500"}
			params := append(item.Parameters, op.Parameters...)
			hasPath := false
			for _, p := range params {
				switch p.Value.In {
				case "path":
					hasPath = true
				case "query", "header":
					want = append(want, "400")
				}
			}
			if op.RequestBody != nil {
				want = append(want, "400", "413")
			}
			if hasPath {
				want = append(want, "404")
			}
			for _, code := range want {
				if op.Responses.Value(code) == nil {
					missing = append(missing, method+" "+path+" "+code)
				}
			}
		}
	}
	sort.Strings(missing)
	require.Empty(t, missing, "statuses the spec does not declare")
}

// The statuses added to the spec are answered: a wait or a page size out of range is a 400.
func TestOutOfRangeParametersAre400(t *testing.T) {
	t.Parallel()
	b := setup(t, false)
	status, body := b.do(t, http.MethodPost, "/v1/runs", `{"code":"1"}`)
	require.Equal(t, http.StatusCreated, status, string(body))
	id := strings.Split(strings.Split(string(body), `"id":"`)[1], `"`)[0]
	for _, path := range []string{"/v1/runs/" + id + "?wait=1000", "/v1/runs/" + id + "/events?limit=0", "/v1/runs/" + id + "/events?after=-1"} {
		status, body := b.do(t, http.MethodGet, path, "")
		require.Equal(t, http.StatusBadRequest, status, "%s: %s", path, body)
	}
	status, body = b.do(t, http.MethodGet, "/v1/runs/"+id+"/events", "", "Accept", "text/event-stream", "Last-Event-ID", "x")
	require.Equal(t, http.StatusBadRequest, status, string(body))
}
