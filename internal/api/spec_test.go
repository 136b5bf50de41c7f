package api

import (
	"fmt"
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

// The spec's bounds on lists of toolset names (maxItems) and on ids in paths (maxLength) are
// the server's: a longer list or id is a 400 naming the field, from the REST API and from MCP
// (which calls the handlers without the spec's validation). An id in another spelling of a
// UUID that PostgreSQL does not read (urn:uuid:...) was answered 500.
func TestSpecLimitsAreTheServers(t *testing.T) {
	t.Parallel()
	doc, err := gen.GetSwagger()
	require.NoError(t, err)
	for _, schema := range []string{"RunCreate", "ScheduleCreate"} {
		maxItems := doc.Components.Schemas[schema].Value.Properties["toolsets"].Value.MaxItems
		require.NotNil(t, maxItems, schema)
		require.EqualValues(t, maxToolsetNames, *maxItems, schema)
	}
	for _, param := range []string{"RunID", "ScheduleID"} {
		maxLength := doc.Components.Parameters[param].Value.Schema.Value.MaxLength
		require.NotNil(t, maxLength, param)
		require.EqualValues(t, maxIDLength, *maxLength, param)
	}

	b := setup(t, false)
	status, body := b.do(t, http.MethodPost, "/v1/runs", `{"code":"1"}`)
	require.Equal(t, http.StatusCreated, status, string(body))
	id := strings.Split(strings.Split(string(body), `"id":"`)[1], `"`)[0]
	status, body = b.do(t, http.MethodPost, "/v1/schedules", `{"code":"1","every":"1h"}`)
	require.Equal(t, http.StatusCreated, status, string(body))
	scheduleID := strings.Split(strings.Split(string(body), `"id":"`)[1], `"`)[0]
	names := func(n int) string {
		list := make([]string, n)
		for i := range list {
			list[i] = fmt.Sprintf("%q", fmt.Sprintf("t%d", i))
		}
		return "[" + strings.Join(list, ",") + "]"
	}
	tests := []struct {
		name, method, path, body string
		want                     int
		message                  string
	}{
		{"run naming 101 toolsets", "POST", "/v1/runs", `{"code":"1","toolsets":` + names(101) + `}`, 400, "/toolsets"},
		{"run naming 100 toolsets", "POST", "/v1/runs", `{"code":"1","toolsets":` + names(100) + `}`, 404, "t0"},
		{"schedule naming 101 toolsets", "POST", "/v1/schedules", `{"code":"1","every":"1h","toolsets":` + names(101) + `}`, 400, "/toolsets"},
		{"schedule naming 100 toolsets", "POST", "/v1/schedules", `{"code":"1","every":"1h","toolsets":` + names(100) + `}`, 404, "t0"},
		{"run id of 37 characters", "GET", "/v1/runs/" + id + "0", "", 400, "id"},
		{"run id as a URN", "GET", "/v1/runs/urn:uuid:" + id, "", 400, "id"},
		{"events of a run id as a URN", "GET", "/v1/runs/urn:uuid:" + id + "/events", "", 400, "id"},
		{"cancel with a long run id", "POST", "/v1/runs/" + strings.Repeat("a", 5000) + "/cancel", "", 400, "id"},
		{"run id in capitals", "GET", "/v1/runs/" + strings.ToUpper(id), "", 200, id},
		{"run id without hyphens", "GET", "/v1/runs/" + strings.ReplaceAll(id, "-", ""), "", 200, id},
		{"run id that is no UUID", "GET", "/v1/runs/x", "", 404, "run not found"},
		{"schedule id as a URN", "GET", "/v1/schedules/urn:uuid:" + scheduleID, "", 400, "id"},
		{"schedule id", "GET", "/v1/schedules/" + scheduleID, "", 200, scheduleID},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			status, body := b.do(t, tt.method, tt.path, tt.body)
			require.Equal(t, tt.want, status, "%s", body)
			require.Contains(t, string(body), tt.message)
		})
	}

	// MCP's tools are held to the same bounds.
	s := &stack{url: b.url, store: b.store}
	session, err := s.connectMCP(t, MCPPath, testToken)
	require.NoError(t, err)
	var many []string
	for i := range maxToolsetNames + 1 {
		many = append(many, fmt.Sprintf("t%d", i))
	}
	res, out := callTool(t, session, "execute", map[string]any{"code": "return 1", "toolsets": many})
	require.True(t, res.IsError, text(res))
	require.Empty(t, out.ID, "no run is created")
	require.Contains(t, text(res), "toolsets: 101 names, more than 100")
	res, _ = callTool(t, session, "get_run", map[string]any{"id": "urn:uuid:" + id})
	require.True(t, res.IsError, text(res))
	require.NotContains(t, text(res), "internal")
}
