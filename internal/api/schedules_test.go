package api

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/client"
)

// TestSchedules manages a schedule through the API: invalid ones are refused with 400, a valid
// one starts runs that link to it, and it can be paused, resumed, listed and deleted.
func TestSchedules(t *testing.T) {
	t.Parallel()
	b := setup(t, true)
	for _, body := range []string{
		`{"code": "plain"}`,
		`{"code": "plain", "cron": "* * * * *", "every": "1s"}`,
		`{"code": "plain", "every": "soon"}`,
		`{"code": "plain", "every": "10ms"}`,
		`{"code": "plain", "cron": "not cron"}`,
		`{"code": "plain", "cron": "0 9 * * *", "timezone": "Mars/Olympus"}`,
		`{"code": "plain", "every": "1s", "overlap": "sometimes"}`,
	} {
		status, resp := b.do(t, http.MethodPost, "/v1/schedules", body)
		require.Equal(t, http.StatusBadRequest, status, "%s: %s", body, resp)
	}
	status, _ := b.do(t, http.MethodPost, "/v1/schedules", `{"code": "plain", "every": "1s", "toolsets": ["nope"]}`)
	require.Equal(t, http.StatusNotFound, status)

	cron, err := b.client.CreateScheduleWithResponse(b.ctx, client.ScheduleCreate{Code: "plain", Cron: ptr("0 9 * * 1-5"), Timezone: ptr("Europe/Paris")})
	require.NoError(t, err)
	require.Equal(t, http.StatusCreated, cron.StatusCode(), string(cron.Body))
	require.Equal(t, client.ScheduleOverlapSkip, cron.JSON201.Overlap)
	require.True(t, cron.JSON201.NextTick.After(time.Now()))

	overlap := client.ScheduleCreateOverlapAllow
	every, err := b.client.CreateScheduleWithResponse(b.ctx, client.ScheduleCreate{Code: "plain", Every: ptr("1s"), Overlap: &overlap})
	require.NoError(t, err)
	require.Equal(t, http.StatusCreated, every.StatusCode(), string(every.Body))
	id := every.JSON201.Id
	require.Equal(t, "1s", *every.JSON201.Every)

	runID := firstTickRun(t, b, id)
	run, err := b.client.GetRunWithResponse(b.ctx, runID, &client.GetRunParams{})
	require.NoError(t, err)
	require.Equal(t, "plain", run.JSON200.Code)
	require.Equal(t, id, *run.JSON200.Lineage.ScheduleId)
	require.NotNil(t, run.JSON200.Lineage.ScheduledFor)

	// The runs a schedule started are listed with ?schedule=, and only they.
	other, err := b.client.CreateRunWithResponse(b.ctx, &client.CreateRunParams{}, client.RunCreate{Code: "return 0"})
	require.NoError(t, err)
	require.Equal(t, http.StatusCreated, other.StatusCode(), string(other.Body))
	started, err := b.client.ListRunsWithResponse(b.ctx, &client.ListRunsParams{Schedule: &id})
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, started.StatusCode(), string(started.Body))
	var listed []string
	for _, r := range started.JSON200.Runs {
		listed = append(listed, r.Id)
		require.NotEqual(t, other.JSON201.Id, r.Id, "a run the schedule did not start")
	}
	require.Contains(t, listed, runID)
	none := "00000000-0000-0000-0000-000000000000"
	empty, err := b.client.ListRunsWithResponse(b.ctx, &client.ListRunsParams{Schedule: &none})
	require.NoError(t, err)
	require.Empty(t, empty.JSON200.Runs)
	status, body := b.do(t, http.MethodGet, "/v1/runs?schedule=nope", "")
	require.Equal(t, http.StatusBadRequest, status, string(body))
	require.Contains(t, string(body), `schedule \"nope\" is not a schedule id`)

	paused, err := b.client.PauseScheduleWithResponse(b.ctx, id)
	require.NoError(t, err)
	require.True(t, paused.JSON200.Paused)
	resumed, err := b.client.ResumeScheduleWithResponse(b.ctx, id)
	require.NoError(t, err)
	require.False(t, resumed.JSON200.Paused)

	list, err := b.client.ListSchedulesWithResponse(b.ctx, &client.ListSchedulesParams{})
	require.NoError(t, err)
	require.Len(t, list.JSON200.Schedules, 2)
	require.Nil(t, list.JSON200.Next)

	deleted, err := b.client.DeleteScheduleWithResponse(b.ctx, id)
	require.NoError(t, err)
	require.Equal(t, http.StatusNoContent, deleted.StatusCode())
	status, _ = b.do(t, http.MethodDelete, "/v1/schedules/"+id, "")
	require.Equal(t, http.StatusNotFound, status)
	status, _ = b.do(t, http.MethodGet, "/v1/schedules/nope", "")
	require.Equal(t, http.StatusNotFound, status)
	run, err = b.client.GetRunWithResponse(b.ctx, runID, &client.GetRunParams{})
	require.NoError(t, err)
	require.Equal(t, id, *run.JSON200.Lineage.ScheduleId, "a run keeps its link to a deleted schedule")
}

// Schedules are listed a page at a time, oldest first: the pages of a listing hold every
// schedule once, in creation order, and a cursor that is not one is refused with 400.
func TestSchedulesAreListedInPages(t *testing.T) {
	t.Parallel()
	b := setup(t, false)
	var created []string
	for i := range 7 {
		sc, err := b.client.CreateScheduleWithResponse(b.ctx, client.ScheduleCreate{
			Code: fmt.Sprintf("return %d", i), Every: ptr("1h")})
		require.NoError(t, err)
		require.Equal(t, http.StatusCreated, sc.StatusCode(), string(sc.Body))
		created = append(created, sc.JSON201.Id)
	}
	var listed []string
	var cursor *string
	pages := 0
	for {
		limit := 3
		page, err := b.client.ListSchedulesWithResponse(b.ctx, &client.ListSchedulesParams{Limit: &limit, Cursor: cursor})
		require.NoError(t, err)
		require.Equal(t, http.StatusOK, page.StatusCode(), string(page.Body))
		require.LessOrEqual(t, len(page.JSON200.Schedules), limit)
		for _, sc := range page.JSON200.Schedules {
			listed = append(listed, sc.Id)
		}
		pages++
		if page.JSON200.Next == nil {
			break
		}
		cursor = page.JSON200.Next
	}
	require.Equal(t, created, listed)
	require.Equal(t, 3, pages)

	all, err := b.client.ListSchedulesWithResponse(b.ctx, &client.ListSchedulesParams{})
	require.NoError(t, err)
	require.Len(t, all.JSON200.Schedules, 7, "the default page holds 50")
	require.Nil(t, all.JSON200.Next)

	for _, q := range []string{"?cursor=nope", "?limit=0", "?limit=501"} {
		status, body := b.do(t, http.MethodGet, "/v1/schedules"+q, "")
		require.Equal(t, http.StatusBadRequest, status, "%s: %s", q, body)
	}
}

// PATCH /v1/schedules/{id} changes what later ticks start and, with cron, every or timezone,
// when; a refused change (400, 404) leaves the schedule as it was.
func TestScheduleUpdate(t *testing.T) {
	t.Parallel()
	b := setup(t, true)
	created, err := b.client.CreateScheduleWithResponse(b.ctx, client.ScheduleCreate{Code: "return 1", Every: ptr("1h")})
	require.NoError(t, err)
	require.Equal(t, http.StatusCreated, created.StatusCode(), string(created.Body))
	id := created.JSON201.Id
	path := "/v1/schedules/" + id

	status, body := b.do(t, http.MethodPatch, path, `{"code": "return input.n * 2", "input": {"n": 21}, "overlap": "allow", "limits": {"timeoutMs": 5000}}`)
	require.Equal(t, http.StatusOK, status, string(body))
	var sc client.Schedule
	require.NoError(t, json.Unmarshal(body, &sc))
	require.Equal(t, "return input.n * 2", sc.Code)
	require.Equal(t, client.ScheduleOverlap("allow"), sc.Overlap)
	require.Equal(t, created.JSON201.NextTick, sc.NextTick, "no timing change: the next tick is kept")
	require.Equal(t, "1h0m0s", *sc.Every)

	// Every second from now: the next tick starts a run with the change.
	status, body = b.do(t, http.MethodPatch, path, `{"every": "1s"}`)
	require.Equal(t, http.StatusOK, status, string(body))
	require.NoError(t, json.Unmarshal(body, &sc))
	require.Equal(t, "1s", *sc.Every)
	require.WithinDuration(t, time.Now(), sc.NextTick, 3*time.Second)
	runID := firstTickRun(t, b, id)
	run, err := b.client.GetRunWithResponse(b.ctx, runID, &client.GetRunParams{})
	require.NoError(t, err)
	require.Equal(t, "return input.n * 2", run.JSON200.Code)
	require.EqualValues(t, 5000, *run.JSON200.Limits.TimeoutMs)
	require.JSONEq(t, `{"n": 21}`, string(*run.JSON200.Input))

	// A cron in a time zone replaces every.
	status, body = b.do(t, http.MethodPatch, path, `{"cron": "0 9 * * *", "timezone": "Europe/Paris"}`)
	require.Equal(t, http.StatusOK, status, string(body))
	sc = client.Schedule{}
	require.NoError(t, json.Unmarshal(body, &sc))
	require.Nil(t, sc.Every)
	require.Equal(t, "0 9 * * *", *sc.Cron)
	require.Equal(t, "Europe/Paris", sc.Timezone)
	paris, err := time.LoadLocation("Europe/Paris")
	require.NoError(t, err)
	require.Equal(t, 9, sc.NextTick.In(paris).Hour())

	for _, tt := range []struct {
		name, path, body, want string
		status                 int
	}{
		{"nothing to change", path, `{}`, "", http.StatusBadRequest},
		{"both timings", path, `{"cron": "@hourly", "every": "1m"}`, "at most one of cron and every", http.StatusBadRequest},
		{"every too short", path, `{"every": "10ms"}`, "every", http.StatusBadRequest},
		{"every not a duration", path, `{"every": "soon"}`, "not a duration", http.StatusBadRequest},
		{"bad cron", path, `{"cron": "every day"}`, "cron", http.StatusBadRequest},
		{"@every under a second", path, `{"cron": "@every 10ms"}`, "at least 1s", http.StatusBadRequest},
		{"Local", path, `{"timezone": "Local"}`, "not an IANA time zone", http.StatusBadRequest},
		{"unknown zone", path, `{"timezone": "Mars/Olympus"}`, "timezone", http.StatusBadRequest},
		{"bad overlap", path, `{"overlap": "sometimes"}`, "overlap", http.StatusBadRequest},
		{"empty code", path, `{"code": ""}`, "code", http.StatusBadRequest},
		{"unknown field", path, `{"paused": true}`, "paused", http.StatusBadRequest},
		{"U+0000 in code", path, `{"code": "return 1\u0000"}`, "U+0000", http.StatusBadRequest},
		{"limit above the ceiling", path, `{"limits": {"timeoutMs": 999999999999}}`, "timeoutMs", http.StatusBadRequest},
		{"missing toolset", path, `{"toolsets": ["missing"]}`, "missing", http.StatusNotFound},
		{"no such schedule", "/v1/schedules/00000000-0000-0000-0000-000000000000", `{"code": "return 0"}`, "schedule not found", http.StatusNotFound},
	} {
		status, body := b.do(t, http.MethodPatch, tt.path, tt.body)
		require.Equal(t, tt.status, status, "%s: %s", tt.name, body)
		require.Contains(t, string(body), tt.want, tt.name)
	}
	got, err := b.client.GetScheduleWithResponse(b.ctx, id)
	require.NoError(t, err)
	require.Equal(t, sc.UpdatedAt, got.JSON200.UpdatedAt, "refused changes change nothing")
	require.Equal(t, "0 9 * * *", *got.JSON200.Cron)
}

// In a PATCH, null removes a schedule's input (later runs get none) and its toolset list
// (later runs may use every toolset), as JSON merge patch does; an absent field is kept.
func TestScheduleUpdateRemovesInputAndToolsets(t *testing.T) {
	t.Parallel()
	b := setup(t, true)
	status, body := b.do(t, http.MethodPost, "/v1/toolsets", `{"name":"ops","url":"http://127.0.0.1:1","tools":[{"path":"a.b"}]}`)
	require.Equal(t, http.StatusCreated, status, string(body))
	status, body = b.do(t, http.MethodPost, "/v1/schedules",
		`{"code": "return input === undefined", "every": "1h", "input": {"n": 1}, "toolsets": ["ops"]}`)
	require.Equal(t, http.StatusCreated, status, string(body))
	var sc client.Schedule
	require.NoError(t, json.Unmarshal(body, &sc))
	path := "/v1/schedules/" + sc.Id

	status, body = b.do(t, http.MethodPatch, path, `{"input": null}`)
	require.Equal(t, http.StatusOK, status, string(body))
	sc = client.Schedule{}
	require.NoError(t, json.Unmarshal(body, &sc))
	require.Nil(t, sc.Input, "input removed: %s", body)
	require.Equal(t, []string{"ops"}, *sc.Toolsets, "toolsets kept")

	status, body = b.do(t, http.MethodPatch, path, `{"toolsets": null, "every": "1s"}`)
	require.Equal(t, http.StatusOK, status, string(body))
	sc = client.Schedule{}
	require.NoError(t, json.Unmarshal(body, &sc))
	require.Nil(t, sc.Toolsets, "every toolset: %s", body)
	require.Nil(t, sc.Input)

	got, err := b.client.GetScheduleWithResponse(b.ctx, sc.Id)
	require.NoError(t, err)
	require.Nil(t, got.JSON200.Input)
	require.Nil(t, got.JSON200.Toolsets)
	run, err := b.client.GetRunWithResponse(b.ctx, firstTickRun(t, b, sc.Id), &client.GetRunParams{})
	require.NoError(t, err)
	require.Nil(t, run.JSON200.Input, "a later run gets no input")
	require.Nil(t, run.JSON200.Toolsets, "a later run may use every toolset")

	// Removing what is not there changes nothing; an empty list is a list (no toolsets at all).
	status, body = b.do(t, http.MethodPatch, path, `{"input": null, "toolsets": null}`)
	require.Equal(t, http.StatusOK, status, string(body))
	status, body = b.do(t, http.MethodPatch, path, `{"toolsets": []}`)
	require.Equal(t, http.StatusOK, status, string(body))
	require.Contains(t, string(body), `"toolsets":[]`)
}

// firstTickRun waits for a tick of schedule id that started a run and returns the run's id.
func firstTickRun(t *testing.T, b *testBundle, id string) string {
	t.Helper()
	var runID string
	require.Eventually(t, func() bool {
		got, err := b.client.GetScheduleWithResponse(b.ctx, id)
		require.NoError(t, err)
		for _, tick := range *got.JSON200.Ticks {
			if tick.RunId != nil {
				runID = *tick.RunId
				return true
			}
		}
		return false
	}, 30*time.Second, 100*time.Millisecond)
	return runID
}
