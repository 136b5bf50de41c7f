package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/codemode/codemode/client"
	"github.com/codemode/codemode/internal/config"
)

// clientFlags are the flags every client verb takes.
type clientFlags struct {
	url   string
	token string
}

func (f *clientFlags) client() (*client.ClientWithResponses, error) {
	if u, err := url.Parse(f.url); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("--url %q is not an http(s) URL (such as http://127.0.0.1:8080)", f.url)
	}
	return NewAPIClient(f.url, f.token)
}

// NewAPIClient returns a client of the service at baseURL that sends token (when not empty)
// as its bearer token; opts add to it (client.WithHTTPClient, ...).
func NewAPIClient(baseURL, token string, opts ...client.ClientOption) (*client.ClientWithResponses, error) {
	c, err := client.New(baseURL, token, opts...)
	if err != nil {
		return nil, err
	}
	return c.ClientWithResponses, nil
}

// response is what every generated response type offers.
type response interface{ StatusCode() int }

// call is one request of a client verb: it returns the response and its body.
type call func(ctx context.Context, c *client.ClientWithResponses) (response, []byte, error)

// do sends the request and prints the service's JSON answer on stdout (nothing for an answer
// without a body, such as a delete's 204). An error status is a failure (ExitFailed) with the
// answer on stderr, as is a request that gets no answer.
func (f *clientFlags) do(cmd *cobra.Command, env Env, send call) error {
	c, err := f.client()
	if err != nil {
		return err
	}
	resp, body, err := send(cmd.Context(), c)
	if err != nil {
		return f.noAnswer(cmd, err)
	}
	if resp.StatusCode() >= 300 {
		return errorAnswer(resp.StatusCode(), body)
	}
	if body = bytes.TrimSpace(body); len(body) > 0 {
		fmt.Fprintf(env.Stdout, "%s\n", body)
	}
	return nil
}

// noAnswer is the failure of a request that got no answer: the service is down or the
// command was interrupted.
func (f *clientFlags) noAnswer(cmd *cobra.Command, err error) error {
	if cmd.Context().Err() == nil {
		err = fmt.Errorf("no answer from the service at %s (is it running? --url or CODEMODE_URL names it): %w", f.url, err)
	}
	return failed(err)
}

// errorAnswer is the failure of an answer with an error status, showing the answer.
func errorAnswer(status int, body []byte) error {
	return failed(fmt.Errorf("HTTP %d: %s", status, bytes.TrimSpace(body)))
}

// jsonFlag reads the value of a flag that holds JSON (--input, --tools, ...): nil when it was
// left empty, a usage error when it does not parse.
func jsonFlag(name, value string) (json.RawMessage, error) {
	if value == "" {
		return nil, nil
	}
	if !json.Valid([]byte(value)) {
		return nil, fmt.Errorf("--%s is not JSON: %s", name, value)
	}
	return json.RawMessage(value), nil
}

// checkLimit refuses a negative --limit (0 leaves the page size to the service).
func checkLimit(limit int) error {
	if limit < 0 {
		return fmt.Errorf("--limit %d: give a page size of 1 or more (0: the service's default)", limit)
	}
	return nil
}

// envOr returns the variable name of env, or def when it is empty.
func envOr(env Env, name, def string) string {
	if v := env.Getenv(name); v != "" {
		return v
	}
	return def
}

// newGroup returns the command of a noun (runs, calls, toolsets, schedules, webhooks,
// catalog) whose verbs talk to the service; they share --url and --token.
func newGroup(name, short, example string, cf *clientFlags, env Env) *cobra.Command {
	cmd := &cobra.Command{
		Use:     name,
		Short:   short,
		Example: example,
		Long: short + `.

Every verb prints the service's JSON answer on stdout. An answer with an error status is
printed on stderr and exits 1; a wrong command line exits 2.`,
		RunE: needSubcommand,
	}
	pf := cmd.PersistentFlags()
	pf.StringVar(&cf.url, "url", envOr(env, "CODEMODE_URL", "http://127.0.0.1:8080"), "the service's base URL (CODEMODE_URL)")
	config.SecretStringVar(pf, &cf.token, "token", env.Getenv("CODEMODE_API_TOKEN"), "bearer token (default $CODEMODE_API_TOKEN)")
	return cmd
}

// newClientCmds returns the client verbs: `codemode runs|calls|toolsets|schedules|webhooks
// <verb> ...` and `codemode catalog [prompt]`.
func newClientCmds(env Env) []*cobra.Command {
	cf := &clientFlags{}
	runs := newGroup("runs", "Create, list, get, follow, cancel, retry or fork runs", `  codemode runs create prog.js --wait 5
  codemode runs get RUN --wait 5
  codemode runs events RUN --follow
  codemode runs list --status suspended
  codemode runs cancel RUN
  codemode runs retry RUN
  codemode runs fork RUN --after-call 3 --code fixed.js`, cf, env)
	calls := newGroup("calls", "List the calls of a run or complete a pending call", `  codemode calls list RUN
  codemode calls complete RUN 2 --value '{"approved":true}'`, cf, env)
	toolsets := newGroup("toolsets", "Register, list, read, update or delete toolsets", `  codemode toolsets add ops http://127.0.0.1:8765
  codemode toolsets list
  codemode toolsets get ops
  codemode toolsets update ops --description 'Deploys and approvals'
  codemode toolsets delete ops`, cf, env)
	runs.AddCommand(runsList(cf, env), runsGet(cf, env), runsCreate(cf, env), runsCancel(cf, env),
		runsEvents(cf, env), runsRetry(cf, env), runsFork(cf, env), runsDeliveries(cf, env))
	calls.AddCommand(callsList(cf, env), callsComplete(cf, env))
	toolsets.AddCommand(toolsetsList(cf, env), toolsetsAdd(cf, env),
		toolsetsGet(cf, env), toolsetsUpdate(cf, env), toolsetsDelete(cf, env))
	return []*cobra.Command{runs, calls, toolsets, newSchedulesCmd(cf, env), newWebhooksCmd(cf, env), newCatalogCmd(cf, env)}
}

func runsList(cf *clientFlags, env Env) *cobra.Command {
	var status, cursor, toolset, schedule, createdAfter string
	var limit int
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List runs, newest first",
		Example: `  codemode runs list
  codemode runs list --status suspended --limit 20`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := checkLimit(limit); err != nil {
				return err
			}
			p := &client.ListRunsParams{}
			if status != "" {
				s := client.RunStatus(status)
				p.Status = &s
			}
			if limit > 0 {
				p.Limit = &limit
			}
			if cursor != "" {
				p.Cursor = &cursor
			}
			if toolset != "" {
				p.Toolset = &toolset
			}
			if schedule != "" {
				p.Schedule = &schedule
			}
			if createdAfter != "" {
				at, err := time.Parse(time.RFC3339, createdAfter)
				if err != nil {
					return fmt.Errorf("--created-after %q: give an RFC 3339 time such as 2026-01-02T15:04:05Z", createdAfter)
				}
				p.CreatedAfter = &at
			}
			return cf.do(cmd, env, func(ctx context.Context, c *client.ClientWithResponses) (response, []byte, error) {
				r, err := c.ListRunsWithResponse(ctx, p)
				if err != nil {
					return nil, nil, err
				}
				return r, r.Body, nil
			})
		},
	}
	f := cmd.Flags()
	f.StringVar(&status, "status", "", "only runs with this status (queued, running, suspended, succeeded, failed, cancelled)")
	f.IntVar(&limit, "limit", 0, "page size (default: the service's)")
	f.StringVar(&cursor, "cursor", "", "the page after this cursor (next of the previous page)")
	f.StringVar(&toolset, "toolset", "", "only runs that may use this toolset")
	f.StringVar(&schedule, "schedule", "", "only runs this schedule started (its id)")
	f.StringVar(&createdAfter, "created-after", "", "only runs created after this RFC 3339 time")
	return cmd
}

// maxWaitPerRequest bounds the wait of one request: the API refuses a wait beyond its own
// maximum (300 seconds by default), so a longer --wait asks again until its deadline.
const maxWaitPerRequest = 60 * time.Second

// waitUntil is the ?wait= of a request made now that must answer by deadline: nil once it
// has passed.
func waitUntil(deadline time.Time) *client.Wait {
	left := time.Until(deadline)
	if left < time.Second/10 {
		return nil
	}
	w := client.Wait(min(left, maxWaitPerRequest).Seconds())
	return &w
}

// checkWait refuses a negative --wait.
func checkWait(wait int) error {
	if wait < 0 {
		return fmt.Errorf("--wait %d: give 0 (no wait) or a number of seconds", wait)
	}
	return nil
}

// awaitSettled reads the run id until it is suspended or finished, or deadline passes, and
// returns the last answer.
func awaitSettled(ctx context.Context, c *client.ClientWithResponses, id string, deadline time.Time) (response, []byte, error) {
	for {
		p := &client.GetRunParams{Wait: waitUntil(deadline)}
		r, err := c.GetRunWithResponse(ctx, client.RunID(id), p)
		if err != nil {
			return nil, nil, err
		}
		if p.Wait == nil || r.JSON200 == nil || settled(r.JSON200.Status) {
			return r, r.Body, nil
		}
	}
}

func runsGet(cf *clientFlags, env Env) *cobra.Command {
	var wait int
	cmd := &cobra.Command{
		Use:   "get RUN",
		Short: "Print a run: its status, pending calls and result",
		Long: `Print a run: its status, pending calls and result.

With --wait N it answers once the run is suspended or finished, or after N seconds, whichever
comes first (the API's ?wait= answers at every status change; this asks again until then).
A finished run is answered at once; a run suspended already is answered at its next change
(once the outcomes it waits on are posted), so that "calls complete" followed by
"runs get --wait" shows what the run did next.`,
		Example: `  codemode runs get 0b9e...
  codemode runs get 0b9e... --wait 5     # once the run is suspended or finished, at most 5 seconds`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkWait(wait); err != nil {
				return err
			}
			deadline := time.Now().Add(time.Duration(wait) * time.Second)
			return cf.do(cmd, env, func(ctx context.Context, c *client.ClientWithResponses) (response, []byte, error) {
				return awaitSettled(ctx, c, args[0], deadline)
			})
		},
	}
	cmd.Flags().IntVar(&wait, "wait", 0, "seconds to wait for the run to be suspended or finished")
	return cmd
}

// settled reports whether a run waits for outcomes or has finished: what --wait waits for.
func settled(s client.RunStatus) bool {
	switch s {
	case client.RunStatusSuspended, client.RunStatusSucceeded, client.RunStatusFailed, client.RunStatusCancelled:
		return true
	}
	return false
}

func runsCreate(cf *clientFlags, env Env) *cobra.Command {
	var wait int
	var toolsets, input string
	cmd := &cobra.Command{
		Use:   "create FILE|-",
		Short: "Start a run of the program in FILE (or stdin for -)",
		Example: `  codemode runs create prog.js --wait 5
  codemode runs create prog.js --input '{"reason": "ship v2"}'
  echo 'await tools.ops.math.add({a: 1, b: 2})' | codemode runs create - --toolsets ops`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkWait(wait); err != nil {
				return err
			}
			deadline := time.Now().Add(time.Duration(wait) * time.Second)
			code, err := readSource(args[0], env.Stdin)
			if err != nil {
				return err
			}
			req := map[string]any{"code": code}
			if names := splitNames(toolsets); len(names) > 0 {
				req["toolsets"] = names
			}
			in, err := jsonFlag("input", input)
			if err != nil {
				return err
			}
			if in != nil {
				req["input"] = in
			}
			payload, _ := json.Marshal(req)
			return cf.do(cmd, env, func(ctx context.Context, c *client.ClientWithResponses) (response, []byte, error) {
				r, err := c.CreateRunWithBodyWithResponse(ctx, &client.CreateRunParams{Wait: waitUntil(deadline)},
					"application/json", bytes.NewReader(payload))
				if err != nil {
					return nil, nil, err
				}
				created := r.JSON201
				if created == nil {
					created = r.JSON200
				}
				if created != nil && !settled(created.Status) && waitUntil(deadline) != nil {
					// A --wait longer than one request may wait: ask again until the deadline.
					return awaitSettled(ctx, c, created.Id, deadline)
				}
				return r, r.Body, nil
			})
		},
	}
	f := cmd.Flags()
	f.IntVar(&wait, "wait", 0, "seconds to wait for the run to be suspended or finished")
	f.StringVar(&toolsets, "toolsets", "", "comma-separated toolset names (default: all)")
	f.StringVar(&input, "input", "", "JSON the program reads as the global input")
	return cmd
}

// splitNames reads a comma-separated list of names: "ops, deploy" is ops and deploy.
func splitNames(list string) []string {
	var names []string
	for _, n := range strings.Split(list, ",") {
		if n = strings.TrimSpace(n); n != "" {
			names = append(names, n)
		}
	}
	return names
}

func runsCancel(cf *clientFlags, env Env) *cobra.Command {
	return &cobra.Command{
		Use:     "cancel RUN",
		Short:   "Cancel a run",
		Example: `  codemode runs cancel 0b9e...`,
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return cf.do(cmd, env, func(ctx context.Context, c *client.ClientWithResponses) (response, []byte, error) {
				r, err := c.CancelRunWithResponse(ctx, client.RunID(args[0]))
				if err != nil {
					return nil, nil, err
				}
				return r, r.Body, nil
			})
		},
	}
}

func callsList(cf *clientFlags, env Env) *cobra.Command {
	return &cobra.Command{
		Use:     "list RUN",
		Short:   "List the tool calls of a run",
		Example: `  codemode calls list 0b9e...`,
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return cf.do(cmd, env, func(ctx context.Context, c *client.ClientWithResponses) (response, []byte, error) {
				r, err := c.ListCallsWithResponse(ctx, client.RunID(args[0]))
				if err != nil {
					return nil, nil, err
				}
				return r, r.Body, nil
			})
		},
	}
}

func callsComplete(cf *clientFlags, env Env) *cobra.Command {
	var value, errMsg string
	cmd := &cobra.Command{
		Use:   "complete RUN CALL (--value JSON | --error MESSAGE)",
		Short: "Post the outcome of a pending durable call",
		Example: `  codemode calls complete 0b9e... 2 --value '{"approved":true}'
  codemode calls complete 0b9e... 2 --error 'rejected by the on-call'`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			callID, err := strconv.Atoi(args[1])
			if err != nil || callID < 1 {
				return fmt.Errorf("CALL %q is not a call id (a number from 1)", args[1])
			}
			if (value == "") == (errMsg == "") {
				return errors.New("give exactly one of --value and --error")
			}
			var outcome map[string]any
			if errMsg != "" {
				outcome = map[string]any{"ok": false, "error": map[string]string{"message": errMsg}}
			} else {
				if !json.Valid([]byte(value)) {
					return errors.New("--value is not valid JSON")
				}
				outcome = map[string]any{"ok": true, "value": json.RawMessage(value)}
			}
			payload, _ := json.Marshal(outcome)
			return cf.do(cmd, env, func(ctx context.Context, c *client.ClientWithResponses) (response, []byte, error) {
				r, err := c.PostOutcomeWithBodyWithResponse(ctx, client.RunID(args[0]), callID, "application/json", bytes.NewReader(payload))
				if err != nil {
					return nil, nil, err
				}
				return r, r.Body, nil
			})
		},
	}
	f := cmd.Flags()
	f.StringVar(&value, "value", "", "complete the call with this value (JSON)")
	f.StringVar(&errMsg, "error", "", "fail the call with this message")
	return cmd
}

func toolsetsList(cf *clientFlags, env Env) *cobra.Command {
	return &cobra.Command{
		Use:     "list",
		Short:   "List the registered toolsets",
		Example: `  codemode toolsets list`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return cf.do(cmd, env, func(ctx context.Context, c *client.ClientWithResponses) (response, []byte, error) {
				r, err := c.ListToolsetsWithResponse(ctx)
				if err != nil {
					return nil, nil, err
				}
				return r, r.Body, nil
			})
		},
	}
}

func toolsetsAdd(cf *clientFlags, env Env) *cobra.Command {
	var secret string
	cmd := &cobra.Command{
		Use:   "add NAME URL",
		Short: "Register a toolset (its manifest is read from URL)",
		Example: `  codemode toolsets add ops http://127.0.0.1:8765
  codemode toolsets add ops https://tools.example.com --secret "$SECRET"`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			req := map[string]any{"name": args[0], "url": args[1]}
			if secret != "" {
				req["secret"] = secret
			}
			payload, _ := json.Marshal(req)
			return cf.do(cmd, env, func(ctx context.Context, c *client.ClientWithResponses) (response, []byte, error) {
				r, err := c.CreateToolsetWithBodyWithResponse(ctx, "application/json", bytes.NewReader(payload))
				if err != nil {
					return nil, nil, err
				}
				return r, r.Body, nil
			})
		},
	}
	cmd.Flags().StringVar(&secret, "secret", "", "signing secret shared with the toolset")
	return cmd
}
