package console_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/internal/pgtest"
	"github.com/codemode/codemode/internal/toolset/toolsettest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// hostile is shown by the console as text wherever it appears; parsed as HTML it would make an
// img element (and try to run its handler).
const hostile = `<img src=x onerror=alert(1)>`

// TestBrowser drives the console in headless Chromium against a real service: server and
// worker processes on a fresh PostgreSQL database, with the API token set and the test toolset
// (with its durable approvals.request tool) registered.
func TestBrowser(t *testing.T) {
	chromium := chromiumPath(t)
	const token = "console-test-token"
	bin := buildBinaries(t)
	svc := startService(t, bin, token)
	tools := toolsettest.New(t, toolsettest.Options{})
	code, body := svc.do(t, "POST", "/v1/toolsets", map[string]any{"name": "ops", "url": tools.URL})
	require.Equal(t, http.StatusCreated, code, "%s", body)

	shots := t.ArtifactDir()
	t.Logf("screenshots go to %s (kept with go test -artifacts -outputdir DIR)", shots)
	b := newBrowser(t, chromium, shots)

	// Sign in: a wrong token is refused, the right one opens the runs page.
	b.do(chromedp.Navigate(svc.base + "/"))
	b.do(chromedp.WaitVisible(chromedp.CSS("#login-token")))
	b.screenshot("01-login")
	b.do(chromedp.SetValue(chromedp.CSS("#login-token"), "wrong"), chromedp.Click(chromedp.CSS("#login-form button")))
	b.waitJS(`document.querySelector('#login-message.error')?.textContent.includes('refused')`)
	b.do(chromedp.SetValue(chromedp.CSS("#login-token"), token), chromedp.Click(chromedp.CSS("#login-form button")))
	b.do(chromedp.WaitVisible(chromedp.CSS("#runs-table")))
	require.True(t, b.evalBool(`location.pathname === '/ui/'`))
	require.True(t, b.evalBool(`sessionStorage.getItem('codemode.token') === `+jsString(token)))

	// A run that suspends on an approval, started from the console.
	program := "console.log(" + jsString(hostile) + ")\n" +
		"const {sum} = await tools.ops.math.add({a: 2, b: 40})\n" +
		"const answer = await tools.ops.approvals.request({reason: `ship ${sum}?`})\n" +
		"return {sum, approved: answer.approved, by: answer.by, note: " + jsString(hostile) + "}"
	b.do(chromedp.Click(chromedp.CSS(`nav a[data-nav="new"]`)), chromedp.WaitVisible(chromedp.CSS("#new-code")),
		chromedp.SetValue(chromedp.CSS("#new-code"), program), chromedp.SetValue(chromedp.CSS("#new-toolsets"), "ops"),
		chromedp.Click(chromedp.CSS("#new-run-submit")))
	b.waitJS(`document.querySelector('#run-status')?.textContent === 'suspended'`)
	b.do(chromedp.WaitVisible(chromedp.CSS(`.pending-call[data-call-id="2"] button.approve`)))
	runID := b.evalString(`decodeURIComponent(location.hash.split('/')[2])`)
	require.Equal(t, "ops.approvals.request", b.evalString(`document.querySelector('.pending-call h3 .mono').textContent`))
	require.Contains(t, b.evalString(`document.querySelector('.pending-call pre.args').textContent`), `"reason": "ship 42?"`)
	b.waitJS(`document.querySelector('.pending-call pre.signature')?.textContent.startsWith('tools.ops.approvals.request(input: {')`)
	require.Contains(t, b.evalString(`document.querySelector('.pending-call pre.signature').textContent`), "approved: boolean")
	b.waitJS(`!!document.querySelector('#timeline-table tr[data-type="suspended"]')`)
	// The snapshot's size, from the event.
	require.Regexp(t, `^[0-9.]+ (B|KB|KiB|kB)$`, b.evalString(`document.querySelector('#timeline-table tr[data-type="suspended"] .size')?.textContent ?? ''`))
	require.Equal(t, "The logs come with the result.", b.evalString(`document.querySelector('#logs p').textContent`))
	b.screenshot("02-suspended")

	// Approve in the console: the run resumes and succeeds, and the page follows it live.
	b.do(chromedp.SetValue(chromedp.CSS(`.pending-call[data-call-id="2"] textarea.approve-value`), `{"approved": true, "by": "ana"}`),
		chromedp.Click(chromedp.CSS(`.pending-call[data-call-id="2"] button.approve`)))
	b.waitJS(`document.querySelector('#run-status')?.textContent === 'succeeded'`)
	b.waitJS(`!!document.querySelector('#result-value')`)
	var value map[string]any
	require.NoError(t, json.Unmarshal([]byte(b.evalString(`document.querySelector('#result-value').textContent`)), &value))
	require.Equal(t, map[string]any{"sum": float64(42), "approved": true, "by": "ana", "note": hostile}, value)
	require.Equal(t, []any{hostile}, b.evalList(`[...document.querySelectorAll('#log-lines li')].map(li => li.textContent)`))
	require.False(t, b.evalBool(`!!document.querySelector('#pending:not([hidden])')`), "the pending section is gone")
	b.waitJS(`!!document.querySelector('#timeline-table tr[data-type="finished"]')`)
	// The timeline: the durable call's settlement carries its duration; the tool calls table too.
	require.Contains(t, b.evalString(`document.querySelector('#timeline-table tr[data-type="call.settled"] .duration')?.textContent ?? ''`), "ms")
	require.Equal(t, []any{"succeeded", "succeeded"}, b.evalList(`[...document.querySelectorAll('#calls tr[data-call-id]')].map(tr => tr.dataset.status)`))
	require.Equal(t, []any{`{"approved":true,"by":"ana"}`}, b.evalList(`[...document.querySelectorAll('#calls tr[data-call-id="2"] td:last-child pre')].map(p => p.textContent)`))
	b.noHostileMarkup()
	b.screenshot("03-approved")
	code, body = svc.do(t, "GET", "/v1/runs/"+runID, nil)
	require.Equal(t, http.StatusOK, code)
	require.Contains(t, string(body), `"status":"succeeded"`)

	// A failing run: its page highlights the failing line and shows the message and the logs
	// printed before the failure.
	failing := "console.log('before failing')\nconsole.log(" + jsString(hostile) + ")\nconst x = 1\nthrow new Error('boom at four')\n"
	code, body = svc.do(t, "POST", "/v1/runs?wait=30", map[string]any{"code": failing})
	require.Equal(t, http.StatusCreated, code, "%s", body)
	var created struct{ ID string }
	require.NoError(t, json.Unmarshal(body, &created))
	b.goTo("#/runs/" + created.ID)
	b.waitJS(`document.querySelector('#run-status')?.textContent === 'failed'`)
	b.waitJS(`!!document.querySelector('#code-lines li.error-line')`)
	require.Equal(t, []any{"4"}, b.evalList(`[...document.querySelectorAll('#code-lines li.error-line')].map(li => li.dataset.line)`))
	require.Equal(t, "throw new Error('boom at four')", b.evalString(`document.querySelector('#code-lines li.error-line .text').textContent`))
	require.Equal(t, "ExecutionFailure", b.evalString(`document.querySelector('#result-error .kind').textContent`))
	require.Contains(t, b.evalString(`document.querySelector('#result-error .message').textContent`), "uncaught Error: boom at four")
	require.Equal(t, []any{"before failing", hostile}, b.evalList(`[...document.querySelectorAll('#log-lines li')].map(li => li.textContent)`))
	require.Equal(t, "console.log("+jsString(hostile)+")", b.evalString(`document.querySelector('#code-lines li[data-line="2"] .text').textContent`))
	b.noHostileMarkup()
	b.screenshot("04-failed")

	// The runs page lists both, and filters by status.
	b.goTo("#/runs")
	b.waitJS(`document.querySelectorAll('#runs-rows tr[data-run-id]').length === 2`)
	b.do(chromedp.SetValue(chromedp.CSS("#filter-status"), "failed"))
	eval[chromedp.Void](b, `document.querySelector('#filter-status').dispatchEvent(new Event('change'))`)
	b.waitJS(`location.hash === '#/runs?status=failed' && [...document.querySelectorAll('#runs-rows tr[data-run-id]')].map(tr => tr.dataset.runId).join() === ` + jsString(created.ID))
	// A run created meanwhile appears without reloading the page.
	b.do(chromedp.SetValue(chromedp.CSS("#filter-status"), ""))
	eval[chromedp.Void](b, `document.querySelector('#filter-status').dispatchEvent(new Event('change'))`)
	b.waitJS(`document.querySelectorAll('#runs-rows tr[data-run-id]').length === 2`)
	code, body = svc.do(t, "POST", "/v1/runs", map[string]any{"code": "return 1"})
	require.Equal(t, http.StatusCreated, code, "%s", body)
	b.waitJS(`document.querySelectorAll('#runs-rows tr[data-run-id]').length === 3`)
	// The toolset filter is exact: only the run naming ops (the approval run) is listed, not the
	// runs that named no toolset and never called it, nor the run limited to another toolset.
	code, body = svc.do(t, "POST", "/v1/toolsets", map[string]any{"name": "other", "url": tools.URL, "tools": []any{map[string]any{"path": "noop"}}})
	require.Equal(t, http.StatusCreated, code, "%s", body)
	code, body = svc.do(t, "POST", "/v1/runs", map[string]any{"code": "return 3", "toolsets": []string{"other"}})
	require.Equal(t, http.StatusCreated, code, "%s", body)
	var other struct{ ID string }
	require.NoError(t, json.Unmarshal(body, &other))
	b.waitJS(`document.querySelectorAll('#runs-rows tr[data-run-id]').length === 4`)
	b.screenshot("05-runs")
	b.goTo("#/runs?toolset=ops")
	b.waitJS(`document.querySelector('#filter-toolset').value === 'ops' && [...document.querySelectorAll('#runs-rows tr[data-run-id]')].map(tr => tr.dataset.runId).join() === ` + jsString(runID))
	require.False(t, b.evalBool(`!!document.querySelector('#runs-rows tr[data-run-id=`+jsString(other.ID)+`]')`))
	require.Equal(t, []any{"", "ops", "other"}, b.evalList(`[...document.querySelectorAll('#filter-toolset option')].map(o => o.value)`))

	// Toolsets: the catalog's signatures, and a search box.
	b.do(chromedp.Click(chromedp.CSS(`nav a[data-nav="toolsets"]`)))
	b.waitJS(`!!document.querySelector('li.tool[data-path="ops.math.add"]')`)
	require.Contains(t, b.evalString(`document.querySelector('li.tool[data-path="ops.math.add"] pre.signature').textContent`), "tools.ops.math.add(input: {")
	all := b.evalList(`[...document.querySelectorAll('li.tool')].map(li => li.dataset.path)`)
	require.Greater(t, len(all), 5)
	require.Contains(t, all, "time.sleep", "the built-in timers are listed with the toolsets' tools")
	b.do(chromedp.SendKeys(chromedp.CSS("#tool-search"), "approv"))
	b.waitJS(`document.querySelectorAll('li.tool').length === 1`)
	require.Equal(t, []any{"ops.approvals.request"}, b.evalList(`[...document.querySelectorAll('li.tool')].map(li => li.dataset.path)`))
	require.Equal(t, fmt.Sprintf("1 of %d tools match", len(all)), b.evalString(`document.querySelector('#tool-count').textContent`))
	b.screenshot("06-toolsets")

	// Webhooks: subscribe in the console, see a delivery and redeliver it.
	var received atomic.Int32
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		received.Add(1)
		w.WriteHeader(http.StatusNoContent)
	}))
	defer hook.Close()
	// Clicks land where the element is when they are made: wait for the list above the form to
	// be filled before using the form.
	b.do(chromedp.Click(chromedp.CSS(`nav a[data-nav="webhooks"]`)))
	b.waitJS(`!!document.querySelector('#webhooks p, #webhooks table')`)
	b.do(chromedp.SetValue(chromedp.CSS("#webhook-url"), hook.URL+"/hook"), chromedp.Click(chromedp.CSS("#webhook-generate")),
		chromedp.Click(chromedp.CSS(`#webhook-form button[type="submit"]`)))
	b.waitJS(`document.querySelectorAll('#webhooks tr[data-webhook-id]').length === 1`)
	code, body = svc.do(t, "POST", "/v1/runs?wait=30", map[string]any{"code": "return 2"})
	require.Equal(t, http.StatusCreated, code, "%s", body)
	b.do(chromedp.Click(chromedp.CSS(`#webhooks tr[data-webhook-id] a`)))
	b.waitJS(`document.querySelector('#deliveries tr[data-delivery-id]')?.dataset.status === 'delivered'`)
	require.Equal(t, int32(1), received.Load())
	b.do(chromedp.Click(chromedp.CSS(`#deliveries tr[data-delivery-id] button.redeliver`)))
	b.waitJS(`(() => { const tr = document.querySelector('#deliveries tr[data-delivery-id]');
		return tr && tr.dataset.status === 'delivered' && tr.children[6].textContent === '1' })()`)
	require.Equal(t, int32(2), received.Load())
	b.screenshot("07-webhook")

	// Without a token (loopback only) there is no sign-in. Denying a pending call rejects the
	// program's promise: uncaught, it fails the run (a ToolFailure's diagnostic has no line).
	open := startService(t, bin, "")
	code, body = open.do(t, "POST", "/v1/toolsets", map[string]any{"name": "ops", "url": tools.URL})
	require.Equal(t, http.StatusCreated, code, "%s", body)
	denied := "const {sum} = await tools.ops.math.add({a: 1, b: 1})\nconst answer = await tools.ops.approvals.request({reason: 'deploy?'})\nreturn answer"
	code, body = open.do(t, "POST", "/v1/runs?wait=30", map[string]any{"code": denied})
	require.Equal(t, http.StatusCreated, code, "%s", body)
	require.NoError(t, json.Unmarshal(body, &created))
	b.do(chromedp.Navigate(open.base + "/ui/#/runs/" + created.ID))
	b.waitJS(`document.querySelector('#run-status')?.textContent === 'suspended'`)
	require.Equal(t, "no token needed", b.evalString(`document.querySelector('#session').textContent`))
	require.False(t, b.evalBool(`!!document.querySelector('#login-token')`))
	b.waitJS(`!!document.querySelector('.pending-call pre.signature')`)
	b.do(chromedp.SetValue(chromedp.CSS(`.pending-call[data-call-id="2"] input.deny-message`), "not on a Friday"),
		chromedp.Click(chromedp.CSS(`.pending-call[data-call-id="2"] button.deny`)))
	b.waitJS(`document.querySelector('#run-status')?.textContent === 'failed' && !!document.querySelector('#result-error')`)
	require.Equal(t, "ToolFailure", b.evalString(`document.querySelector('#result-error .kind').textContent`))
	require.Contains(t, b.evalString(`document.querySelector('#result-error .message').textContent`), "not on a Friday")
	require.Empty(t, b.evalList(`[...document.querySelectorAll('#code-lines li.error-line')]`))
	require.Equal(t, []any{`error: not on a Friday`}, b.evalList(`[...document.querySelectorAll('#calls tr[data-call-id="2"] td:last-child pre')].map(p => p.textContent)`))
	b.screenshot("08-denied")

	// Cancelling asks with a second click.
	code, body = open.do(t, "POST", "/v1/runs?wait=30", map[string]any{"code": denied})
	require.Equal(t, http.StatusCreated, code, "%s", body)
	require.NoError(t, json.Unmarshal(body, &created))
	b.goTo("#/runs/" + created.ID)
	b.waitJS(`document.querySelector('#run-status')?.textContent === 'suspended' && !!document.querySelector('#run-cancel')`)
	b.do(chromedp.Click(chromedp.CSS("#run-cancel")))
	require.Equal(t, "Really cancel?", b.evalString(`document.querySelector('#run-cancel').textContent`))
	require.Equal(t, "suspended", b.evalString(`document.querySelector('#run-status').textContent`))
	b.do(chromedp.Click(chromedp.CSS("#run-cancel")))
	b.waitJS(`document.querySelector('#run-status')?.textContent === 'cancelled'`)
	b.waitJS(`document.querySelector('#result-none')?.textContent === 'Cancelled runs have no result.' && !document.querySelector('#run-cancel')`)
	b.waitJS(`!!document.querySelector('#timeline-table tr[data-type="cancelled"]')`)

	b.finish()
}

// TestBrowserSchedules drives the schedules' pages against a real service: a page of schedules
// made through the API, one made in the console's form (after two refused attempts) that ticks
// every second, its ticks' runs and back, pausing, resuming and deleting, from its page and from
// the list.
func TestBrowserSchedules(t *testing.T) {
	chromium := chromiumPath(t)
	const token = "console-test-token"
	svc := startService(t, buildBinaries(t), token)
	tools := toolsettest.New(t, toolsettest.Options{})
	code, body := svc.do(t, "POST", "/v1/toolsets", map[string]any{"name": "ops", "url": tools.URL})
	require.Equal(t, http.StatusCreated, code, "%s", body)
	// More than a page of schedules that do not tick during the test (their tick is midnight on
	// January 1st): the list is oldest first, so the one made in the console is on the second.
	for i := range 51 {
		code, body = svc.do(t, "POST", "/v1/schedules", map[string]any{"code": fmt.Sprintf("return %d", i), "cron": "0 0 1 1 *"})
		require.Equal(t, http.StatusCreated, code, "%s", body)
	}
	countSchedules := func() int {
		t.Helper()
		code, body := svc.do(t, "GET", "/v1/schedules?limit=500", nil)
		require.Equal(t, http.StatusOK, code, "%s", body)
		var page struct{ Schedules []json.RawMessage }
		require.NoError(t, json.Unmarshal(body, &page))
		return len(page.Schedules)
	}
	getSchedule := func(id string) (int, map[string]any) {
		t.Helper()
		code, body := svc.do(t, "GET", "/v1/schedules/"+id, nil)
		var sc map[string]any
		require.NoError(t, json.Unmarshal(body, &sc), "%s", body)
		return code, sc
	}

	shots := t.ArtifactDir()
	t.Logf("screenshots go to %s (kept with go test -artifacts -outputdir DIR)", shots)
	b := newBrowser(t, chromium, shots)
	b.do(chromedp.Navigate(svc.base + "/"))
	b.do(chromedp.WaitVisible(chromedp.CSS("#login-token")), chromedp.SetValue(chromedp.CSS("#login-token"), token),
		chromedp.Click(chromedp.CSS("#login-form button")))
	b.do(chromedp.WaitVisible(chromedp.CSS("#runs-table")))

	// The first page of the list, and Show more for the rest.
	b.do(chromedp.Click(chromedp.CSS(`nav a[data-nav="schedules"]`)))
	b.waitJS(`document.querySelectorAll('#schedules-rows tr[data-schedule-id]').length === 50 && !document.querySelector('#schedules-more').hidden`)
	require.Equal(t, "schedules", b.evalString(`document.querySelector('nav a.current')?.dataset.nav ?? ''`))
	require.Equal(t, []any{"cron 0 0 1 1 *", "UTC", "skip", "active"},
		b.evalList(`[...document.querySelector('#schedules-rows tr').children].slice(1, 5).map(td => td.textContent)`))

	// The form refuses an input that is not JSON before posting anything.
	program := "// " + hostile + "\nconst {sum} = await tools.ops.math.add({a: input.n, b: 1})\nreturn " + jsString(hostile) + " + sum"
	b.do(chromedp.SetValue(chromedp.CSS("#schedule-code"), program), chromedp.SetValue(chromedp.CSS("#schedule-every"), "1s"),
		chromedp.SetValue(chromedp.CSS("#schedule-toolsets"), "ops"), chromedp.SetValue(chromedp.CSS("#schedule-input"), `{"n": 41`),
		chromedp.SetValue(chromedp.CSS("#schedule-timeout"), "30000"), chromedp.Click(chromedp.CSS("#schedule-submit")))
	b.waitJS(`document.querySelector('#schedule-form-error .error')?.textContent.startsWith('Input is not JSON')`)
	require.Equal(t, 51, countSchedules())
	// Neither cron nor every: the API refuses, and the page shows its message.
	// (SetValue cannot set an empty value.)
	eval[chromedp.Void](b, `document.querySelector('#schedule-every').value = ''`)
	b.do(chromedp.SetValue(chromedp.CSS("#schedule-input"), `{"n": 41}`), chromedp.Click(chromedp.CSS("#schedule-submit")))
	b.waitJS(`document.querySelector('#schedule-form-error .error')?.textContent.includes('give exactly one of cron and every')`)
	require.Equal(t, 51, countSchedules())
	b.screenshot("s01-refused")

	// Every second: created, it is on the second page of the list.
	b.do(chromedp.SetValue(chromedp.CSS("#schedule-every"), "1s"), chromedp.Click(chromedp.CSS("#schedule-submit")))
	b.waitJS(`!!document.querySelector('#schedule-created a')`)
	require.Empty(t, b.evalString(`document.querySelector('#schedule-form-error').textContent`))
	id := b.evalString(`document.querySelector('#schedule-created a').textContent`)
	require.Equal(t, 52, countSchedules())
	row := `#schedules-rows tr[data-schedule-id="` + id + `"]`
	require.False(t, b.evalBool(`!!document.querySelector(`+jsString(row)+`)`))
	b.do(chromedp.Click(chromedp.CSS("#schedules-more")))
	b.waitJS(`!!document.querySelector(` + jsString(row) + `) && document.querySelector('#schedules-more').hidden`)
	require.Equal(t, 52, eval[int](b, `document.querySelectorAll('#schedules-rows tr[data-schedule-id]').length`))
	require.Equal(t, []any{"every 1s", "UTC", "skip", "active"},
		b.evalList(`[...document.querySelector(`+jsString(row)+`).children].slice(1, 5).map(td => td.textContent)`))
	require.Equal(t, "const {sum} = await tools.ops.math.add({a: input.n, b: 1})",
		b.evalString(`document.querySelector(`+jsString(row)+` + ' td.code-summary').textContent`))
	b.noHostileMarkup()
	b.screenshot("s02-list")

	// Its page: its fields, code and input, and a tick that started a run.
	b.do(chromedp.Click(chromedp.CSS(row + " td:first-child a")))
	b.waitJS(`location.hash === '#/schedules/` + id + `' && document.querySelector('#schedule-state')?.textContent === 'active'`)
	require.Equal(t, "every 1s", b.evalString(`document.querySelector('#schedule-spec').textContent`))
	meta := b.evalString(`document.querySelector('#schedule-meta').textContent`)
	require.Contains(t, meta, "ops")
	require.Contains(t, meta, `{"timeoutMs":30000}`)
	require.Equal(t, "// "+hostile, b.evalString(`document.querySelector('#schedule-code-lines li[data-line="1"] .text').textContent`))
	var input any
	require.NoError(t, json.Unmarshal([]byte(b.evalString(`document.querySelector('#schedule-input-value').textContent`)), &input))
	require.Equal(t, map[string]any{"n": float64(41)}, input)
	b.waitJS(`!!document.querySelector('#schedule-tick-rows tr[data-run-id] a')`)
	b.noHostileMarkup()
	b.screenshot("s03-schedule")

	// The tick's link opens its run, whose page links back to the schedule.
	runID := b.evalString(`document.querySelector('#schedule-tick-rows tr[data-run-id]').dataset.runId`)
	b.do(chromedp.Click(chromedp.CSS(`#schedule-tick-rows tr[data-run-id="` + runID + `"] a`)))
	b.waitJS(`location.hash === '#/runs/` + runID + `' && document.querySelector('#run-status')?.textContent === 'succeeded' && !!document.querySelector('#result-value')`)
	var value any
	require.NoError(t, json.Unmarshal([]byte(b.evalString(`document.querySelector('#result-value').textContent`)), &value))
	require.Equal(t, hostile+"42", value)
	require.Equal(t, id, b.evalString(`document.querySelector('#run-schedule').textContent`))
	require.Equal(t, "#/schedules/"+id, b.evalString(`document.querySelector('#run-schedule').getAttribute('href')`))
	b.noHostileMarkup()
	b.screenshot("s04-run")
	b.do(chromedp.Click(chromedp.CSS("#run-schedule")))
	b.waitJS(`location.hash === '#/schedules/` + id + `' && document.querySelector('#schedule-state')?.textContent === 'active'`)

	// All the runs it started: the runs page filtered on it lists them and no other run; the
	// filter is kept with a status filter, and dropped with its own link.
	code, body = svc.do(t, "POST", "/v1/runs", map[string]any{"code": "return 'not scheduled'"})
	require.Equal(t, http.StatusCreated, code, "%s", body)
	var unscheduled struct{ ID string }
	require.NoError(t, json.Unmarshal(body, &unscheduled))
	b.do(chromedp.Click(chromedp.CSS("#schedule-runs")))
	b.waitJS(`location.hash === '#/runs?schedule=` + id + `' && !!document.querySelector('#runs-rows tr[data-run-id="` + runID + `"]')`)
	require.Equal(t, id, b.evalString(`document.querySelector('#filter-schedule a').textContent`))
	require.False(t, b.evalBool(`!!document.querySelector('#runs-rows tr[data-run-id="`+unscheduled.ID+`"]')`))
	b.do(chromedp.SetValue(chromedp.CSS("#filter-status"), "succeeded"))
	eval[chromedp.Void](b, `document.querySelector('#filter-status').dispatchEvent(new Event('change'))`)
	b.waitJS(`location.hash === '#/runs?status=succeeded&schedule=` + id + `' && !!document.querySelector('#runs-rows tr[data-run-id="` + runID + `"]')`)
	require.False(t, b.evalBool(`!!document.querySelector('#runs-rows tr[data-run-id="`+unscheduled.ID+`"]')`))
	b.do(chromedp.Click(chromedp.CSS("#filter-schedule-clear")))
	b.waitJS(`location.hash === '#/runs?status=succeeded' && !document.querySelector('#filter-schedule') && !!document.querySelector('#runs-rows tr[data-run-id="` + unscheduled.ID + `"]')`)
	b.screenshot("s04-runs-of-schedule")
	b.do(chromedp.Navigate(svc.base + "/ui/#/runs?schedule=" + id))
	b.waitJS(`!!document.querySelector('#filter-schedule a')`)
	b.do(chromedp.Click(chromedp.CSS("#filter-schedule a")))
	b.waitJS(`location.hash === '#/schedules/` + id + `' && document.querySelector('#schedule-state')?.textContent === 'active'`)

	// Paused, it starts no run; resumed, it ticks again.
	b.do(chromedp.Click(chromedp.CSS("#schedule-pause")))
	b.waitJS(`document.querySelector('#schedule-state')?.textContent === 'paused' && document.querySelector('#schedule-pause').textContent === 'Resume'`)
	require.Equal(t, "none while paused", b.evalString(`document.querySelector('#schedule-next').textContent`))
	code, sc := getSchedule(id)
	require.Equal(t, http.StatusOK, code)
	require.Equal(t, true, sc["paused"])
	time.Sleep(1500 * time.Millisecond) // a tick fired as it was paused is recorded
	_, sc = getSchedule(id)
	newest := sc["ticks"].([]any)[0].(map[string]any)["tick"].(string)
	time.Sleep(2500 * time.Millisecond)
	_, sc = getSchedule(id)
	require.Equal(t, newest, sc["ticks"].([]any)[0].(map[string]any)["tick"], "a paused schedule ticked")
	b.waitJS(`document.querySelector('#schedule-tick-rows tr')?.dataset.tick === ` + jsString(newest))
	b.screenshot("s05-paused")
	b.do(chromedp.Click(chromedp.CSS("#schedule-pause")))
	b.waitJS(`document.querySelector('#schedule-state')?.textContent === 'active' && document.querySelector('#schedule-pause').textContent === 'Pause'`)
	b.waitJS(`document.querySelector('#schedule-tick-rows tr')?.dataset.tick !== ` + jsString(newest))

	// Deleting asks with a second click, then shows the list (its first page); the run keeps its
	// link.
	b.do(chromedp.Click(chromedp.CSS("#schedule-delete")))
	require.Equal(t, "Really delete?", b.evalString(`document.querySelector('#schedule-delete').textContent`))
	code, _ = getSchedule(id)
	require.Equal(t, http.StatusOK, code)
	b.do(chromedp.Click(chromedp.CSS("#schedule-delete")))
	b.waitJS(`location.hash === '#/schedules' && document.querySelectorAll('#schedules-rows tr[data-schedule-id]').length === 50 && !document.querySelector('#schedules-more').hidden`)
	code, _ = getSchedule(id)
	require.Equal(t, http.StatusNotFound, code)
	b.goTo("#/runs/" + runID)
	b.waitJS(`document.querySelector('#run-schedule')?.textContent === ` + jsString(id))
	b.do(chromedp.Click(chromedp.CSS("#run-schedule")))
	b.waitJS(`!!document.querySelector('#schedule-error .error')`)

	// Pause and delete from the list: the last schedule moves up from the second page.
	b.do(chromedp.Click(chromedp.CSS(`nav a[data-nav="schedules"]`)))
	b.waitJS(`document.querySelectorAll('#schedules-rows tr[data-schedule-id]').length === 50`)
	first := b.evalString(`document.querySelector('#schedules-rows tr').dataset.scheduleId`)
	b.do(chromedp.Click(chromedp.CSS(`#schedules-rows tr:first-child button.pause`)))
	b.waitJS(`(() => { const tr = document.querySelector('#schedules-rows tr');
		return tr.dataset.paused === 'true' && tr.children[4].textContent === 'paused' && tr.querySelector('button.pause').textContent === 'Resume' })()`)
	_, sc = getSchedule(first)
	require.Equal(t, true, sc["paused"])
	b.do(chromedp.Click(chromedp.CSS(`#schedules-rows tr:first-child button.delete`)))
	require.Equal(t, "Really delete?", b.evalString(`document.querySelector('#schedules-rows tr:first-child button.delete').textContent`))
	b.do(chromedp.Click(chromedp.CSS(`#schedules-rows tr:first-child button.delete`)))
	b.waitJS(`document.querySelectorAll('#schedules-rows tr[data-schedule-id]').length === 50 && document.querySelector('#schedules-more').hidden &&
		!document.querySelector('#schedules-rows tr[data-schedule-id="` + first + `"]')`)
	require.Equal(t, 50, countSchedules())
	b.screenshot("s06-list")

	b.finish()
}

// TestBrowserScheduleEdit edits a schedule on its page against a real service: the form holds
// the schedule as it is and keeps what is typed while the page refreshes; Cancel, a form changing
// nothing and an input that is not JSON send nothing; a change the API refuses shows its message
// and changes nothing; a new input alone keeps the next tick; a new code and interval move it,
// and the next tick's run runs the new code.
func TestBrowserScheduleEdit(t *testing.T) {
	chromium := chromiumPath(t)
	const token = "console-test-token"
	svc := startService(t, buildBinaries(t), token)
	tools := toolsettest.New(t, toolsettest.Options{})
	code, body := svc.do(t, "POST", "/v1/toolsets", map[string]any{"name": "ops", "url": tools.URL})
	require.Equal(t, http.StatusCreated, code, "%s", body)
	// Hourly, it does not tick before the edit makes it tick every second. maxToolCalls is not in
	// the form: an edit of the schedule keeps it.
	limits := map[string]any{"timeoutMs": float64(30000), "maxToolCalls": float64(5)}
	program := "// " + hostile + "\nreturn 'before ' + input.n"
	code, body = svc.do(t, "POST", "/v1/schedules", map[string]any{
		"code": program, "every": "1h", "timezone": "Europe/Paris", "overlap": "queue",
		"toolsets": []string{"ops"}, "input": map[string]any{"n": 1}, "limits": limits})
	require.Equal(t, http.StatusCreated, code, "%s", body)
	var created struct{ ID string }
	require.NoError(t, json.Unmarshal(body, &created))
	id := created.ID
	getSchedule := func() map[string]any {
		t.Helper()
		code, body := svc.do(t, "GET", "/v1/schedules/"+id, nil)
		require.Equal(t, http.StatusOK, code, "%s", body)
		var sc map[string]any
		require.NoError(t, json.Unmarshal(body, &sc), "%s", body)
		return sc
	}

	shots := t.ArtifactDir()
	t.Logf("screenshots go to %s (kept with go test -artifacts -outputdir DIR)", shots)
	b := newBrowser(t, chromium, shots)
	b.do(chromedp.Navigate(svc.base + "/"))
	b.do(chromedp.WaitVisible(chromedp.CSS("#login-token")), chromedp.SetValue(chromedp.CSS("#login-token"), token),
		chromedp.Click(chromedp.CSS("#login-form button")))
	b.do(chromedp.WaitVisible(chromedp.CSS("#runs-table")))
	b.goTo("#/schedules/" + id)
	b.waitJS(`document.querySelector('#schedule-state')?.textContent === 'active' && !document.querySelector('#schedule-edit').hidden`)
	require.Equal(t, "every 1h0m0s", b.evalString(`document.querySelector('#schedule-spec').textContent`))
	require.False(t, b.evalBool(`!!document.querySelector('#schedule-edit-form')`))
	// formValues are the edit form's fields, in the order fields lists them.
	fields := `['code', 'cron', 'every', 'timezone', 'overlap', 'toolsets', 'input', 'timeout']`
	formValues := func() []any {
		t.Helper()
		return b.evalList(fields + `.map(f => document.querySelector('#schedule-edit-' + f).value)`)
	}
	asIs := []any{program, "", "1h0m0s", "Europe/Paris", "queue", "ops", "{\n  \"n\": 1\n}", "30000"}

	// Edit: the form holds the schedule as it is, and the Edit button is gone while it is open.
	b.do(chromedp.Click(chromedp.CSS("#schedule-edit")))
	b.do(chromedp.WaitVisible(chromedp.CSS("#schedule-edit-form")))
	require.Equal(t, asIs, formValues())
	require.True(t, b.evalBool(`document.querySelector('#schedule-edit').hidden`))
	b.noHostileMarkup()
	b.screenshot("e01-form")

	// What is typed stays while the page refreshes: a pause and a resume made elsewhere show on
	// the page, the form keeps the text.
	b.do(chromedp.SetValue(chromedp.CSS("#schedule-edit-code"), "typed, not saved"))
	code, body = svc.do(t, "POST", "/v1/schedules/"+id+"/pause", nil)
	require.Equal(t, http.StatusOK, code, "%s", body)
	b.waitJS(`document.querySelector('#schedule-state')?.textContent === 'paused'`)
	code, body = svc.do(t, "POST", "/v1/schedules/"+id+"/resume", nil)
	require.Equal(t, http.StatusOK, code, "%s", body)
	b.waitJS(`document.querySelector('#schedule-state')?.textContent === 'active'`)
	require.Equal(t, "typed, not saved", b.evalString(`document.querySelector('#schedule-edit-code').value`))

	// Cancel closes the form and sends nothing.
	asWas := getSchedule()
	b.do(chromedp.Click(chromedp.CSS("#schedule-edit-cancel")))
	b.waitJS(`!document.querySelector('#schedule-edit-form') && !document.querySelector('#schedule-edit').hidden`)
	require.Equal(t, asWas, getSchedule())

	// Opened again, the form holds the schedule, not what was typed; saved as it is, it sends
	// nothing (the schedule's updatedAt stays), and says so.
	b.do(chromedp.Click(chromedp.CSS("#schedule-edit")))
	b.do(chromedp.WaitVisible(chromedp.CSS("#schedule-edit-form")))
	require.Equal(t, asIs, formValues())
	b.do(chromedp.Click(chromedp.CSS("#schedule-edit-save")))
	b.waitJS(`document.querySelector('#schedule-edit-status')?.textContent === 'Nothing changed: nothing was sent.'`)
	require.Equal(t, asWas, getSchedule())

	// An input that is not JSON is refused before sending.
	b.do(chromedp.SetValue(chromedp.CSS("#schedule-edit-input"), `{"n": `), chromedp.Click(chromedp.CSS("#schedule-edit-save")))
	b.waitJS(`document.querySelector('#schedule-edit-error .error')?.textContent.startsWith('Input is not JSON')`)
	require.Equal(t, asWas, getSchedule())

	// A cron expression the API refuses: the form shows the API's message and stays as typed,
	// and the schedule is as it was (its input too, sent with the cron).
	b.do(chromedp.SetValue(chromedp.CSS("#schedule-edit-input"), `{"n": 2}`), chromedp.SetValue(chromedp.CSS("#schedule-edit-cron"), "not a cron"))
	eval[chromedp.Void](b, `document.querySelector('#schedule-edit-every').value = ''`) // (SetValue cannot set an empty value.)
	b.do(chromedp.Click(chromedp.CSS("#schedule-edit-save")))
	b.waitJS(`document.querySelector('#schedule-edit-error .error')?.textContent.includes('not a cron')`)
	require.Empty(t, b.evalString(`document.querySelector('#schedule-edit-status').textContent`))
	require.Equal(t, "not a cron", b.evalString(`document.querySelector('#schedule-edit-cron').value`))
	require.Equal(t, asWas, getSchedule())
	b.screenshot("e02-refused")

	// The input alone: only it is sent, and the schedule keeps its next tick.
	eval[chromedp.Void](b, `document.querySelector('#schedule-edit-cron').value = ''`)
	b.do(chromedp.SetValue(chromedp.CSS("#schedule-edit-every"), "1h0m0s"), chromedp.Click(chromedp.CSS("#schedule-edit-save")))
	b.waitJS(`!document.querySelector('#schedule-edit-form') && document.querySelector('#schedule-edited')?.textContent === 'Changed input.'`)
	b.waitJS(`document.querySelector('#schedule-input-value')?.textContent === '{\n  "n": 2\n}'`)
	sc := getSchedule()
	require.NotEqual(t, asWas["updatedAt"], sc["updatedAt"])
	require.Equal(t, asWas["nextTick"], sc["nextTick"], "an edit leaving the timing as it was moved the next tick")
	require.Equal(t, map[string]any{"n": float64(2)}, sc["input"])
	for _, k := range []string{"code", "every", "timezone", "overlap", "toolsets", "limits"} {
		require.Equal(t, asWas[k], sc[k], k)
	}

	// The code and the interval: every second from now, the tick's runs run the new code with
	// the input as edited, the limits the form does not show kept.
	b.do(chromedp.Click(chromedp.CSS("#schedule-edit")))
	b.do(chromedp.WaitVisible(chromedp.CSS("#schedule-edit-form")))
	require.Equal(t, "{\n  \"n\": 2\n}", b.evalString(`document.querySelector('#schedule-edit-input').value`))
	edited := "// " + hostile + "\nreturn 'after ' + input.n"
	b.do(chromedp.SetValue(chromedp.CSS("#schedule-edit-code"), edited), chromedp.SetValue(chromedp.CSS("#schedule-edit-every"), "1s"),
		chromedp.Click(chromedp.CSS("#schedule-edit-save")))
	b.waitJS(`!document.querySelector('#schedule-edit-form') && document.querySelector('#schedule-edited')?.textContent === 'Changed code, every.'`)
	b.waitJS(`document.querySelector('#schedule-spec')?.textContent === 'every 1s' &&
		document.querySelector('#schedule-code-lines li[data-line="2"] .text')?.textContent === "return 'after ' + input.n"`)
	sc = getSchedule()
	require.Equal(t, edited, sc["code"])
	require.Equal(t, "1s", sc["every"])
	require.Nil(t, sc["cron"])
	require.Equal(t, limits, sc["limits"])
	require.NotEqual(t, asWas["nextTick"], sc["nextTick"])
	next, err := time.Parse(time.RFC3339Nano, sc["nextTick"].(string))
	require.NoError(t, err)
	require.WithinDuration(t, time.Now(), next, 5*time.Second, "the next tick is not the first after the edit")
	b.waitJS(`!!document.querySelector('#schedule-tick-rows tr[data-run-id] a')`)
	b.noHostileMarkup()
	b.screenshot("e03-edited")
	runID := b.evalString(`document.querySelector('#schedule-tick-rows tr[data-run-id]').dataset.runId`)
	b.do(chromedp.Click(chromedp.CSS(`#schedule-tick-rows tr[data-run-id="` + runID + `"] a`)))
	b.waitJS(`location.hash === '#/runs/` + runID + `' && document.querySelector('#run-status')?.textContent === 'succeeded' && !!document.querySelector('#result-value')`)
	require.Equal(t, `"after 2"`, b.evalString(`document.querySelector('#result-value').textContent`))
	require.Equal(t, "return 'after ' + input.n", b.evalString(`document.querySelector('#code-lines li[data-line="2"] .text').textContent`))
	b.screenshot("e04-run")

	// Emptied, the toolsets field and the input remove the schedule's list and its input.
	b.goTo("#/schedules/" + id)
	b.waitJS(`!document.querySelector('#schedule-edit').hidden`)
	b.do(chromedp.Click(chromedp.CSS("#schedule-edit")))
	b.do(chromedp.WaitVisible(chromedp.CSS("#schedule-edit-form")))
	eval[chromedp.Void](b, `document.querySelector('#schedule-edit-toolsets').value = ''; document.querySelector('#schedule-edit-input').value = ''`)
	b.do(chromedp.Click(chromedp.CSS("#schedule-edit-save")))
	b.waitJS(`!document.querySelector('#schedule-edit-form') && document.querySelector('#schedule-edited')?.textContent === 'Changed toolsets, input.'`)
	b.waitJS(`!document.querySelector('#schedule-input-value')`)
	sc = getSchedule()
	require.NotContains(t, sc, "input")
	require.NotContains(t, sc, "toolsets")
	require.Equal(t, edited, sc["code"])

	b.finish()
}

// chromiumPath finds Chromium (or Chrome). Its absence fails the test: the console is only
// tested in a browser, and CI installs one.
func chromiumPath(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("CODEMODE_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "headless-shell"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Fatal("the console's browser test needs Chromium and found none on PATH: install it with " +
		"`apt-get update && apt-get install -y chromium` (Debian; .ci/run does this), or set " +
		"CODEMODE_CHROMIUM to a Chromium or Chrome binary")
	return ""
}

// jsString quotes s for JavaScript, keeping < and > as they are (the hostile string must reach
// the program's code literally).
func jsString(s string) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}

// browser is a headless Chromium tab. Script errors, console errors (the Content-Security-
// Policy's refusals among them) and dialogs (an alert would mean markup from the data ran) are
// collected and fail the test at finish.
type browser struct {
	t     *testing.T
	ctx   context.Context
	shots string
	start time.Time

	mu       sync.Mutex
	problems []string
}

func newBrowser(t *testing.T, chromium, shots string) *browser {
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromium),
		chromedp.NoSandbox, // as root (CI) Chromium refuses to start with its sandbox
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.WindowSize(1280, 1000),
	)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelCtx := chromedp.NewContext(allocCtx)
	b := &browser{t: t, ctx: ctx, shots: shots, start: time.Now()}
	// The first action starts the browser, which lives as long as the context of that action:
	// this one has no timeout.
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil {
		cancelCtx()
		cancelAlloc()
		t.Fatalf("starting Chromium (%s): %v", chromium, err)
	}
	messages := chromedp.Console(ctx)
	dialogs := chromedp.Events(ctx, page.JavascriptDialogOpening)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		for m, err := range messages {
			if err != nil {
				return
			}
			// Failed requests are logged as network errors: the console's probe for a
			// token answers 401 by design.
			if m.IsException() || (m.Type == chromedp.ConsoleError && m.Source != "network") {
				b.problem("console %s: %s (%s:%d)", m.Type, m.Text, m.URL, m.Line+1)
			}
		}
	}()
	go func() {
		defer wg.Done()
		for ev, err := range dialogs {
			if err != nil {
				return
			}
			b.problem("a %s dialog opened: %q", ev.Type, ev.Message)
			_, _ = chromedp.Call(ctx, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: false})
		}
	}()
	t.Cleanup(func() {
		cancelCtx()
		cancelAlloc()
		wg.Wait()
	})
	return b
}

func (b *browser) problem(format string, args ...any) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.problems = append(b.problems, fmt.Sprintf(format, args...))
}

func (b *browser) fail(format string, args ...any) {
	b.t.Helper()
	var text string
	ctx, cancel := context.WithTimeout(b.ctx, 5*time.Second)
	defer cancel()
	text, _ = chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('main')?.innerText ?? ''`))
	// The page's latest requests, to tell a request that never answered from one never made.
	requests, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`performance.getEntriesByType('resource').slice(-20)
		.map(e => Math.round(e.startTime) + '..' + Math.round(e.responseEnd) + ' ' + e.name).join('\n')`))
	text += "\nlatest requests (ms since the page loaded):\n" + requests
	b.screenshot("failure")
	b.mu.Lock()
	problems := b.problems
	b.mu.Unlock()
	b.t.Fatalf("browser: "+format+"\npage text:\n%s\nproblems in the browser: %q", append(args, text, problems)...)
}

// do runs the steps, each query waiting up to 60 s for its element.
func (b *browser) do(steps ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 60*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, steps...); err != nil {
		b.fail("%v", err)
	}
}

// waitJS waits until the expression is true, up to 60 s.
func (b *browser) waitJS(expr string) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 70*time.Second)
	defer cancel()
	_, err := chromedp.Run(ctx, chromedp.Poll[chromedp.Void](expr,
		chromedp.WithPollingInterval(100*time.Millisecond), chromedp.WithPollingTimeout(60*time.Second)))
	if err != nil {
		b.fail("waiting for %s: %v", expr, err)
	}
}

func eval[T any](b *browser, expr string) T {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 30*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		b.fail("evaluating %s: %v", expr, err)
	}
	return v
}

func (b *browser) evalString(expr string) string { b.t.Helper(); return eval[string](b, expr) }
func (b *browser) evalBool(expr string) bool     { b.t.Helper(); return eval[bool](b, expr) }
func (b *browser) evalList(expr string) []any    { b.t.Helper(); return eval[[]any](b, expr) }

// goTo shows a page of the console by changing the location's fragment, as its links do (no
// new document: the session's token stays).
func (b *browser) goTo(fragment string) {
	b.t.Helper()
	eval[chromedp.Void](b, `location.hash = `+jsString(fragment))
}

// noHostileMarkup: the hostile string made no element anywhere on the page.
func (b *browser) noHostileMarkup() {
	b.t.Helper()
	require.Empty(b.t, b.evalList(`[...document.querySelectorAll('img, [onerror]')].map(e => e.outerHTML)`))
}

func (b *browser) screenshot(name string) {
	ctx, cancel := context.WithTimeout(b.ctx, 30*time.Second)
	defer cancel()
	buf, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		b.t.Logf("screenshot %s: %v", name, err)
		return
	}
	path := filepath.Join(b.shots, name+".png")
	if err := os.WriteFile(path, buf, 0o644); err != nil {
		b.t.Logf("screenshot %s: %v", name, err)
		return
	}
	b.t.Logf("screenshot after %.1fs: %s", time.Since(b.start).Seconds(), path)
}

func (b *browser) finish() {
	b.t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	require.Empty(b.t, b.problems, "problems in the browser")
}

// service is a server process and a worker process on a fresh database; token "" starts the
// server without one (it then listens on loopback only, as here).
type service struct {
	base  string
	token string
}

func (s service) do(t *testing.T, method, path string, body any) (int, []byte) {
	t.Helper()
	var r io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		require.NoError(t, err)
		r = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, s.base+path, r)
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	if s.token != "" {
		req.Header.Set("Authorization", "Bearer "+s.token)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, data
}

func startService(t *testing.T, bin, token string) service {
	t.Helper()
	_, dbURL := pgtest.NewDB(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	require.NoError(t, ln.Close())
	// The secret key lets the service store the webhook subscription's signing secret.
	key := base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{7}, 32))
	common := []string{"DATABASE_URL=" + dbURL, "CODEMODE_EGRESS_ALLOW=loopback", "CODEMODE_SECRET_KEY=" + key}
	startProcess(t, filepath.Join(bin, "server"), append(common, "CODEMODE_LISTEN="+addr, "CODEMODE_API_TOKEN="+token))
	startProcess(t, filepath.Join(bin, "worker"), append(common, "CODEMODE_WORKER_LISTEN=127.0.0.1:0"))
	s := service{base: "http://" + addr, token: token}
	deadline := time.Now().Add(60 * time.Second)
	for {
		resp, err := http.Get(s.base + "/healthz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return s
			}
		}
		require.True(t, time.Now().Before(deadline), "the server never became healthy")
		time.Sleep(50 * time.Millisecond)
	}
}

// buildBinaries builds the server and the worker into a directory of the test.
func buildBinaries(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	tags := ""
	if os.Getenv("CODEMODE_ROUNDTRIP") == "1" {
		tags = "codemode_roundtrip"
	}
	out, err := exec.Command("go", "build", "-tags", tags, "-o", dir+"/",
		"github.com/codemode/codemode/cmd/server", "github.com/codemode/codemode/cmd/worker").CombinedOutput()
	require.NoError(t, err, "go build: %s", out)
	return dir
}

// startProcess starts a binary whose output is shown when the test fails, and kills it when
// the test ends.
func startProcess(t *testing.T, path string, env []string) {
	t.Helper()
	cmd := exec.Command(path)
	cmd.Env = append(os.Environ(), env...)
	pr, pw := io.Pipe()
	cmd.Stdout, cmd.Stderr = pw, pw
	require.NoError(t, cmd.Start())
	var mu sync.Mutex
	var out strings.Builder
	copied := make(chan struct{})
	go func() {
		defer close(copied)
		sc := bufio.NewScanner(pr)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			mu.Lock()
			out.WriteString(sc.Text() + "\n")
			mu.Unlock()
		}
		_, _ = io.Copy(io.Discard, pr)
	}()
	done := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		_ = pw.Close()
		close(done)
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGKILL)
		<-done
		<-copied
		if t.Failed() {
			mu.Lock()
			t.Logf("%s output:\n%s", filepath.Base(path), out.String())
			mu.Unlock()
		}
	})
}
