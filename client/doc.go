// Package client is the Go client of the codemode HTTP API (api/openapi.yaml; the guide is
// docs/api.md).
//
// New returns a *Codemode, which offers the common flows:
//
//   - CreateAndWait starts a run of a program and waits until it has settled: finished, or
//     suspended on a durable call (an approval, a build) listed in Run.Pending.
//   - Complete and Fail post the outcome of a pending call; the run resumes with it.
//   - Wait waits for a run to settle again (long polling with ?wait=, at each status change).
//   - Events streams a run's timeline as it is written (server-sent events), opening the
//     stream again when it breaks before the run has finished.
//   - Run.Decode reads the value a finished program returned; a failed run is a *RunError.
//
// Every operation of the API is also there, generated from the OpenAPI document by
// oapi-codegen (generated.go, `go generate ./client`): c.ListRunsWithResponse,
// c.CreateToolsetWithResponse, ... return the response with its decoded JSON body per status.
// Error answers of the helpers are *APIError.
//
// A run that asks for an approval, approved:
//
//	c, err := client.New("http://127.0.0.1:8080", os.Getenv("CODEMODE_API_TOKEN"))
//	run, err := c.CreateAndWait(ctx, `
//	    const {sum} = await tools.ops.math.add({a: 2, b: 40});
//	    const ok = await tools.ops.approvals.request({reason: "ship " + sum + "?"});
//	    return ok.approved ? sum : -1`, nil)
//	// run.Status is "suspended"; run.Pending[0] is the approvals.request call.
//	_, err = c.Complete(ctx, run.Id, run.Pending[0].CallId, map[string]any{"approved": true})
//	run, err = c.Wait(ctx, run.Id, time.Minute)
//	var sum int
//	err = run.Decode(&sum) // 42
package client
