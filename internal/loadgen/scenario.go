package loadgen

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/codemode/codemode/client"
)

// A scenario drives one run from creation to its end and returns the latency it measures.
type scenario struct {
	name string
	// what the latency of one run measures, for the report
	measures string
	run      func(ctx context.Context, c *client.ClientWithResponses, toolset string) (time.Duration, error)
}

// scenarios are the run kinds loadgen measures (docs/architecture.md, "Benchmarks"), in report order.
var scenarios = []scenario{
	{name: "trivial", measures: "POST /v1/runs -> run finished", run: runTrivial},
	{name: "calls10", measures: "POST /v1/runs -> run finished (10 sequential tool calls)", run: runCalls10},
	{name: "resume", measures: "outcome POST -> run finished", run: runResume},
}

// waitSeconds bounds each wait the generator asks the API for.
const waitSeconds = 30

func runTrivial(ctx context.Context, c *client.ClientWithResponses, _ string) (time.Duration, error) {
	start := time.Now()
	run, err := createRun(ctx, c, "1 + 1", nil)
	if err != nil {
		return 0, err
	}
	if err := finish(ctx, c, run, "2"); err != nil {
		return 0, err
	}
	return time.Since(start), nil
}

func runCalls10(ctx context.Context, c *client.ClientWithResponses, toolset string) (time.Duration, error) {
	code := fmt.Sprintf(`let sum = 0;
for (let i = 0; i < %d; i++) sum += (await tools.%s.echo({i})).i;
sum`, callsPerRun, toolset)
	start := time.Now()
	run, err := createRun(ctx, c, code, []string{toolset})
	if err != nil {
		return 0, err
	}
	if err := finish(ctx, c, run, strconv.Itoa(callsPerRun*(callsPerRun-1)/2)); err != nil { // 0 + 1 + ...
		return 0, err
	}
	return time.Since(start), nil
}

func runResume(ctx context.Context, c *client.ClientWithResponses, toolset string) (time.Duration, error) {
	code := fmt.Sprintf(`const answer = await tools.%s.approvals.request({reason: "load"});
answer.approved`, toolset)
	run, err := createRun(ctx, c, code, []string{toolset})
	if err != nil {
		return 0, err
	}
	for run.Status != client.RunStatusSuspended {
		if terminal(run.Status) {
			return 0, fmt.Errorf("run %s ended %s before suspending", run.Id, run.Status)
		}
		if run, err = getRun(ctx, c, run.Id); err != nil {
			return 0, err
		}
	}
	if len(run.Pending) != 1 {
		return 0, fmt.Errorf("run %s is suspended on %d calls, want 1", run.Id, len(run.Pending))
	}
	value := client.Any(`{"approved":true}`)
	start := time.Now()
	resp, err := c.PostOutcomeWithResponse(ctx, run.Id, run.Pending[0].CallId, client.Outcome{Ok: true, Value: &value})
	if err != nil {
		return 0, err
	}
	if resp.StatusCode() != 202 {
		return 0, fmt.Errorf("outcome for run %s: status %d: %s", run.Id, resp.StatusCode(), resp.Body)
	}
	if err := finish(ctx, c, run, "true"); err != nil {
		return 0, err
	}
	return time.Since(start), nil
}

// createRun posts a run and waits for it to suspend or finish.
func createRun(ctx context.Context, c *client.ClientWithResponses, code string, toolsets []string) (*client.Run, error) {
	wait := client.Wait(waitSeconds)
	body := client.RunCreate{Code: code}
	if toolsets != nil {
		body.Toolsets = &toolsets
	}
	resp, err := c.CreateRunWithResponse(ctx, &client.CreateRunParams{Wait: &wait}, body)
	if err != nil {
		return nil, err
	}
	if resp.JSON201 == nil {
		return nil, fmt.Errorf("create run: status %d: %s", resp.StatusCode(), resp.Body)
	}
	return resp.JSON201, nil
}

func getRun(ctx context.Context, c *client.ClientWithResponses, id string) (*client.Run, error) {
	wait := client.Wait(waitSeconds)
	resp, err := c.GetRunWithResponse(ctx, id, &client.GetRunParams{Wait: &wait})
	if err != nil {
		return nil, err
	}
	if resp.JSON200 == nil {
		return nil, fmt.Errorf("get run %s: status %d: %s", id, resp.StatusCode(), resp.Body)
	}
	return resp.JSON200, nil
}

// finish waits until run has ended and checks that it succeeded with the value want (JSON).
func finish(ctx context.Context, c *client.ClientWithResponses, run *client.Run, want string) error {
	var err error
	for !terminal(run.Status) {
		if run, err = getRun(ctx, c, run.Id); err != nil {
			return err
		}
	}
	if run.Status != client.RunStatusSucceeded || run.Result == nil {
		return fmt.Errorf("run %s ended %s: %v", run.Id, run.Status, run.Result)
	}
	got, err := json.Marshal((*run.Result)["value"])
	if err != nil {
		return err
	}
	if string(got) != want {
		return fmt.Errorf("run %s returned %s, want %s", run.Id, got, want)
	}
	return nil
}

func terminal(s client.RunStatus) bool {
	return s == client.RunStatusSucceeded || s == client.RunStatusFailed || s == client.RunStatusCancelled
}
