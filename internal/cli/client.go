package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/spf13/cobra"
	"gopkg.in/yaml.v3"

	"github.com/codemode/codemode/client"
	"github.com/codemode/codemode/internal/config"
)

// clientFlags are the flags every client verb takes.
type clientFlags struct {
	url   string
	token string
}

func (f *clientFlags) client() (*client.ClientWithResponses, error) {
	if err := checkHTTPURL("url", f.url); err != nil {
		return nil, err
	}
	return NewAPIClient(f.url, f.token)
}

// checkHTTPURL refuses a flag's URL that is not http(s) with a host.
func checkHTTPURL(name, value string) error {
	if u, err := url.Parse(value); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("--%s %q is not an http(s) URL (such as http://127.0.0.1:8080)", name, value)
	}
	return nil
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

// limitFlags are the --timeout-ms, --max-tool-calls, --max-output-bytes and --max-memory-bytes
// of a run or a schedule: the API's Limits, under the names codemode eval gives them.
type limitFlags struct {
	timeoutMs, maxToolCalls, maxOutputBytes, maxMemoryBytes int64
}

func (l *limitFlags) add(cmd *cobra.Command) {
	f := cmd.Flags()
	f.Int64Var(&l.timeoutMs, "timeout-ms", 0, "active time limit in milliseconds (default: the service's)")
	f.Int64Var(&l.maxToolCalls, "max-tool-calls", 0, "tool call limit (default: the service's)")
	f.Int64Var(&l.maxOutputBytes, "max-output-bytes", 0, "output size limit in bytes (default: the service's)")
	f.Int64Var(&l.maxMemoryBytes, "max-memory-bytes", 0, "heap limit in bytes (default: the service's)")
}

// parse returns the Limits of the limit flags given: nil when none was. A limit below 1 is a
// usage error: the API takes 1 up to the worker's ceiling, and a limit left out is the
// service's default (eval's 0, no limit, has no equivalent there).
func (l *limitFlags) parse(cmd *cobra.Command) (*client.Limits, error) {
	var lim client.Limits
	given := false
	for _, x := range []struct {
		flag  string
		value int64
		field **int64
	}{
		{"timeout-ms", l.timeoutMs, &lim.TimeoutMs},
		{"max-tool-calls", l.maxToolCalls, &lim.MaxToolCalls},
		{"max-output-bytes", l.maxOutputBytes, &lim.MaxOutputBytes},
		{"max-memory-bytes", l.maxMemoryBytes, &lim.MaxMemoryBytes},
	} {
		if !cmd.Flags().Changed(x.flag) {
			continue
		}
		if x.value < 1 {
			return nil, fmt.Errorf("--%s %d: give 1 or more (leave it out for the service's default)", x.flag, x.value)
		}
		v := x.value
		*x.field, given = &v, true
	}
	if !given {
		return nil, nil
	}
	return &lim, nil
}

// maxIdempotencyKey is the API's maxLength of an Idempotency-Key, in characters.
const maxIdempotencyKey = 255

// idempotencyKey is the Idempotency-Key header of --idempotency-key: nil when it was not given.
// A key the API or HTTP would refuse (empty, too long, a control character) is a usage error
// rather than a 400 or a request that cannot be sent.
func idempotencyKey(cmd *cobra.Command, key string) (*string, error) {
	if !cmd.Flags().Changed("idempotency-key") {
		return nil, nil
	}
	if key == "" || utf8.RuneCountInString(key) > maxIdempotencyKey || strings.ContainsFunc(key, unicode.IsControl) {
		return nil, fmt.Errorf("--idempotency-key: give 1 to %d characters, none of them control characters", maxIdempotencyKey)
	}
	return &key, nil
}

// byArg completes cmd as a verb that sends one request about what its only argument names (a
// run, a schedule, a webhook...): send makes the request, and its answer is printed as do
// prints it.
func byArg(cf *clientFlags, env Env, cmd *cobra.Command,
	send func(ctx context.Context, c *client.ClientWithResponses, arg string) (response, []byte, error)) *cobra.Command {
	cmd.Args = cobra.ExactArgs(1)
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		return cf.do(cmd, env, func(ctx context.Context, c *client.ClientWithResponses) (response, []byte, error) {
			return send(ctx, c, args[0])
		})
	}
	return cmd
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
	var toolsets, input, webhookURL, webhookSecret, key string
	var limits limitFlags
	cmd := &cobra.Command{
		Use:   "create FILE|-",
		Short: "Start a run of the program in FILE (or stdin for -)",
		Long: `Start a run of the program in FILE (or stdin for -).

--timeout-ms, --max-tool-calls, --max-output-bytes and --max-memory-bytes lower the service's
limits for this run (a limit left out is the service's). --webhook-url gets every event of the
run, signed with --webhook-secret when given. With --idempotency-key, creating the same run
again with the same key answers the run created first; the key with another request is refused
(HTTP 409).`,
		Example: `  codemode runs create prog.js --wait 5
  codemode runs create prog.js --input '{"reason": "ship v2"}'
  codemode runs create prog.js --timeout-ms 60000 --max-tool-calls 20 --idempotency-key deploy-42
  codemode runs create prog.js --webhook-url https://example.com/hooks --webhook-secret "$SECRET"
  echo 'await tools.ops.math.add({a: 1, b: 2})' | codemode runs create - --toolsets ops`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkWait(wait); err != nil {
				return err
			}
			lim, err := limits.parse(cmd)
			if err != nil {
				return err
			}
			idem, err := idempotencyKey(cmd, key)
			if err != nil {
				return err
			}
			var webhook *client.WebhookTarget
			if webhookURL != "" {
				if err := checkHTTPURL("webhook-url", webhookURL); err != nil {
					return err
				}
				webhook = &client.WebhookTarget{Url: webhookURL}
				if webhookSecret != "" {
					webhook.Secret = &webhookSecret
				}
			} else if webhookSecret != "" {
				return errors.New("--webhook-secret signs the deliveries to --webhook-url: give --webhook-url too")
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
			if lim != nil {
				req["limits"] = lim
			}
			if webhook != nil {
				req["webhook"] = webhook
			}
			payload, _ := json.Marshal(req)
			return cf.do(cmd, env, func(ctx context.Context, c *client.ClientWithResponses) (response, []byte, error) {
				r, err := c.CreateRunWithBodyWithResponse(ctx, &client.CreateRunParams{Wait: waitUntil(deadline), IdempotencyKey: idem},
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
	limits.add(cmd)
	f.StringVar(&webhookURL, "webhook-url", "", "send every event of the run to this URL")
	f.StringVar(&webhookSecret, "webhook-secret", "", "sign the deliveries to --webhook-url with this secret (whsec_<base64> or text)")
	f.StringVar(&key, "idempotency-key", "", "the same run created again with this key answers the first")
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
	return byArg(cf, env, &cobra.Command{
		Use:     "cancel RUN",
		Short:   "Cancel a run",
		Example: `  codemode runs cancel 0b9e...`,
	}, func(ctx context.Context, c *client.ClientWithResponses, arg string) (response, []byte, error) {
		r, err := c.CancelRunWithResponse(ctx, client.RunID(arg))
		if err != nil {
			return nil, nil, err
		}
		return r, r.Body, nil
	})
}

func callsList(cf *clientFlags, env Env) *cobra.Command {
	return byArg(cf, env, &cobra.Command{
		Use:     "list RUN",
		Short:   "List the tool calls of a run",
		Example: `  codemode calls list 0b9e...`,
	}, func(ctx context.Context, c *client.ClientWithResponses, arg string) (response, []byte, error) {
		r, err := c.ListCallsWithResponse(ctx, client.RunID(arg))
		if err != nil {
			return nil, nil, err
		}
		return r, r.Body, nil
	})
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

// toolsetKinds are the kinds of toolset the API registers (docs/toolsets.md).
var toolsetKinds = []client.ToolsetCreateKind{client.ToolsetCreateKindHttp, client.ToolsetCreateKindOpenapi, client.ToolsetCreateKindMcp}

// kindFields are the flags of toolsets add that only some kinds take; the service refuses them
// with the others (400), this before any request.
var kindFields = []struct {
	flag  string
	kinds []client.ToolsetCreateKind
}{
	{"document", []client.ToolsetCreateKind{client.ToolsetCreateKindOpenapi}},
	{"base-url", []client.ToolsetCreateKind{client.ToolsetCreateKindOpenapi}},
	{"auth", []client.ToolsetCreateKind{client.ToolsetCreateKindOpenapi, client.ToolsetCreateKindMcp}},
	{"secret", []client.ToolsetCreateKind{client.ToolsetCreateKindHttp}},
	{"tools", []client.ToolsetCreateKind{client.ToolsetCreateKindHttp}},
	{"namespaces", []client.ToolsetCreateKind{client.ToolsetCreateKindHttp}},
}

// kindNames is "http, openapi or mcp" for kinds.
func kindNames(kinds []client.ToolsetCreateKind) string {
	names := make([]string, len(kinds))
	for i, k := range kinds {
		names[i] = string(k)
	}
	if len(names) == 1 {
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

func toolsetsAdd(cf *clientFlags, env Env) *cobra.Command {
	var kind, secret, document, baseURL, auth, description, tools, namespaces string
	cmd := &cobra.Command{
		Use:   "add NAME [URL]",
		Short: "Register a toolset: a tool protocol server, an OpenAPI document or an MCP server",
		Long: `Register a toolset (docs/toolsets.md). --kind says how it is reached:

  http (the default)  URL is a tool protocol server; its manifest is read from URL, or given
                      inline with --tools and --namespaces. --secret signs the calls.
  openapi             an OpenAPI 3.0 or 3.1 document: fetched from URL, or given with
                      --document (a JSON or YAML file, or stdin for -). --base-url replaces
                      the document's servers.
  mcp                 URL is an MCP server's streamable HTTP endpoint; its tools are listed.

--auth gives the credentials of an openapi or mcp toolset, as JSON: {"type": "bearer",
"token": T}, {"type": "apiKey", "in": "header"|"query", "name": N, "value": V} or
{"type": "basic", "username": U, "password": P}. The service never shows them again.`,
		Example: `  codemode toolsets add ops http://127.0.0.1:8765
  codemode toolsets add ops https://tools.example.com --secret "$SECRET"
  codemode toolsets add pets --kind openapi --document pets.yaml --base-url https://pets.example.com/v1
  codemode toolsets add petstore https://petstore3.swagger.io/api/v3/openapi.json --kind openapi \
    --auth '{"type": "apiKey", "in": "header", "name": "api_key", "value": "special-key"}'
  codemode toolsets add docs https://mcp.example.com/mcp --kind mcp --auth "{\"type\": \"bearer\", \"token\": \"$TOKEN\"}"`,
		Args: cobra.RangeArgs(1, 2),
		RunE: func(cmd *cobra.Command, args []string) error {
			f := cmd.Flags()
			k := client.ToolsetCreateKindHttp
			if f.Changed("kind") {
				if k = client.ToolsetCreateKind(kind); !k.Valid() {
					return fmt.Errorf("--kind %q: give %s", kind, kindNames(toolsetKinds))
				}
			}
			for _, kf := range kindFields {
				if f.Changed(kf.flag) && !slices.Contains(kf.kinds, k) {
					return fmt.Errorf("--%s is for --kind %s", kf.flag, kindNames(kf.kinds))
				}
			}
			req := map[string]any{"name": args[0]}
			if f.Changed("kind") {
				req["kind"] = k
			}
			switch {
			case k == client.ToolsetCreateKindOpenapi && (len(args) == 2) == (document != ""):
				return errors.New("give one of URL (where to fetch the OpenAPI document) and --document")
			case len(args) == 2:
				req["url"] = args[1]
			case k != client.ToolsetCreateKindOpenapi:
				return fmt.Errorf("give URL: a toolset of kind %s is called there (only --kind openapi may take --document instead)", k)
			}
			if document != "" {
				doc, err := documentFlag(document, env.Stdin)
				if err != nil {
					return err
				}
				req["document"] = doc
			}
			if err := serverFields(req, baseURL, auth); err != nil {
				return err
			}
			if secret != "" {
				req["secret"] = secret
			}
			if f.Changed("description") {
				req["description"] = description
			}
			for _, j := range []struct{ name, value string }{{"tools", tools}, {"namespaces", namespaces}} {
				v, err := jsonFlag(j.name, j.value)
				if err != nil {
					return err
				}
				if v != nil {
					req[j.name] = v
				}
			}
			if namespaces != "" && tools == "" {
				// The service reads the namespaces with inline tools only, and ignores them otherwise.
				return errors.New("--namespaces describes the namespaces of --tools: give --tools too")
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
	f := cmd.Flags()
	f.StringVar(&kind, "kind", "", "how the toolset is reached: http, openapi or mcp (default: http)")
	f.StringVar(&secret, "secret", "", "signing secret shared with the toolset (http)")
	f.StringVar(&document, "document", "", "the OpenAPI document, JSON or YAML, from this file (- for stdin) instead of URL (openapi)")
	f.StringVar(&baseURL, "base-url", "", "the server the operations are called on, instead of the document's (openapi)")
	f.StringVar(&auth, "auth", "", "credentials applied to every request, as JSON such as {\"type\": \"bearer\", \"token\": \"...\"} (openapi, mcp)")
	f.StringVar(&description, "description", "", "description of the toolset's namespace")
	f.StringVar(&tools, "tools", "", "the manifest's tools inline (a JSON array); URL is not read for them (http)")
	f.StringVar(&namespaces, "namespaces", "", "the namespaces of --tools (a JSON array) (http)")
	return cmd
}

// documentFlag reads --document: an OpenAPI document from the file name, or stdin for -. The
// API takes it inline as a JSON object only (YAML only when it fetches the document from a
// URL), so a YAML document is sent as the JSON it stands for.
func documentFlag(name string, stdin io.Reader) (json.RawMessage, error) {
	text, err := readSource(name, stdin)
	if err != nil {
		return nil, err
	}
	if json.Valid([]byte(text)) {
		// JSON is sent as written: numbers and key order stay the document's.
		if !strings.HasPrefix(strings.TrimSpace(text), "{") {
			return nil, fmt.Errorf("--document %s is not an OpenAPI document: JSON, but not an object", name)
		}
		return json.RawMessage(text), nil
	}
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(text), &doc); err != nil {
		return nil, fmt.Errorf("--document %s is neither JSON nor YAML: %w", name, err)
	}
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, fmt.Errorf("--document %s is not an OpenAPI document: a JSON or YAML object", name)
	}
	asText(doc.Content[0], false)
	var v any
	if err := doc.Decode(&v); err != nil {
		return nil, fmt.Errorf("--document %s: %w", name, err)
	}
	data, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("--document %s cannot be sent as JSON: %w", name, err)
	}
	return data, nil
}

// asText makes the YAML scalars JSON has no type for read as the strings written: the keys of
// mappings (a response's 200 is the key "200", as in JSON) and timestamps (a version
// 2024-01-01 stays that, not a time). Merge keys (<<) keep their meaning.
func asText(n *yaml.Node, key bool) {
	if n.Kind == yaml.ScalarNode && n.ShortTag() != "!!merge" && (key || n.ShortTag() == "!!timestamp") {
		n.Tag = "!!str"
	}
	for i, c := range n.Content {
		asText(c, n.Kind == yaml.MappingNode && i%2 == 0)
	}
}

// authFlag reads --auth: a ToolsetAuth, its fields and type checked here so that a misspelt one
// is a usage error. Its messages never repeat the value (credentials), unlike jsonFlag's.
func authFlag(value string) (json.RawMessage, error) {
	if value == "" {
		return nil, nil
	}
	if !json.Valid([]byte(value)) {
		return nil, errors.New("--auth is not JSON")
	}
	var a client.ToolsetAuth
	dec := json.NewDecoder(strings.NewReader(value))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&a); err != nil {
		return nil, fmt.Errorf("--auth is not credentials (type and the fields of its type): %w", err)
	}
	if !a.Type.Valid() {
		return nil, fmt.Errorf("--auth: type %q: give apiKey, bearer or basic", a.Type)
	}
	if a.In != nil && !a.In.Valid() {
		return nil, fmt.Errorf("--auth: in %q: give header or query", *a.In)
	}
	return json.RawMessage(value), nil
}

// serverFields sets the baseUrl and auth fields of a toolset request from --base-url and
// --auth, when given.
func serverFields(req map[string]any, baseURL, auth string) error {
	if baseURL != "" {
		if err := checkHTTPURL("base-url", baseURL); err != nil {
			return err
		}
		req["baseUrl"] = baseURL
	}
	creds, err := authFlag(auth)
	if err != nil {
		return err
	}
	if creds != nil {
		req["auth"] = creds
	}
	return nil
}
