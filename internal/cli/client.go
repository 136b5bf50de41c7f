package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/codemode/codemode/internal/api/gen"
)

// clientFlags are the flags every client verb takes.
type clientFlags struct {
	url   string
	token string
}

func (f *clientFlags) register(fs *flag.FlagSet, env Env) {
	fs.StringVar(&f.url, "url", envOr(env, "CODEMODE_URL", "http://127.0.0.1:8080"), "the service's base URL (CODEMODE_URL)")
	fs.StringVar(&f.token, "token", env.Getenv("CODEMODE_API_TOKEN"), "bearer token (CODEMODE_API_TOKEN)")
}

func (f *clientFlags) client() (*gen.ClientWithResponses, error) {
	return NewAPIClient(f.url, f.token)
}

// NewAPIClient returns a client of the service at baseURL that sends token (when not empty)
// as its bearer token; opts add to it (gen.WithHTTPClient, ...).
func NewAPIClient(baseURL, token string, opts ...gen.ClientOption) (*gen.ClientWithResponses, error) {
	auth := gen.WithRequestEditorFn(func(_ context.Context, req *http.Request) error {
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		return nil
	})
	return gen.NewClientWithResponses(strings.TrimRight(baseURL, "/"), append(opts, auth)...)
}

// response is what every generated response type offers.
type response interface{ StatusCode() int }

// runClient runs the client verbs: `codemode runs|calls|toolsets <verb> ...`. Each prints the
// service's JSON answer on stdout; an error status exits 1 with the answer on stderr.
func runClient(ctx context.Context, noun string, args []string, env Env) int {
	if len(args) == 0 {
		fmt.Fprint(env.Stderr, clientUsage)
		return ExitUsage
	}
	verb := args[0]
	fs := flag.NewFlagSet(noun+" "+verb, flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	var cf clientFlags
	cf.register(fs, env)
	var (
		status   = fs.String("status", "", "runs list: only runs with this status")
		limit    = fs.Int("limit", 0, "runs list: page size")
		cursor   = fs.String("cursor", "", "runs list: the page after this cursor")
		wait     = fs.Int("wait", 0, "runs get/create: seconds to wait for a change")
		value    = fs.String("value", "", "calls complete: the call's value as JSON")
		errMsg   = fs.String("error", "", "calls complete: fail the call with this message")
		toolsets = fs.String("toolsets", "", "runs create: comma-separated toolset names (default: all)")
		secret   = fs.String("secret", "", "toolsets add: signing secret")
	)
	if err := fs.Parse(args[1:]); err != nil {
		return ExitUsage
	}
	pos := fs.Args()
	c, err := cf.client()
	if err != nil {
		fmt.Fprintln(env.Stderr, "codemode:", err)
		return ExitUsage
	}
	need := func(n int) bool {
		if len(pos) != n {
			fmt.Fprint(env.Stderr, clientUsage)
			return false
		}
		return true
	}
	var body []byte
	var resp response
	switch noun + " " + verb {
	case "runs list":
		p := &gen.ListRunsParams{}
		if *status != "" {
			s := gen.RunStatus(*status)
			p.Status = &s
		}
		if *limit > 0 {
			p.Limit = limit
		}
		if *cursor != "" {
			p.Cursor = cursor
		}
		r, e := c.ListRunsWithResponse(ctx, p)
		err = e
		if e == nil {
			resp, body = r, r.Body
		}
	case "runs get":
		if !need(1) {
			return ExitUsage
		}
		p := &gen.GetRunParams{}
		if *wait > 0 {
			w := gen.Wait(*wait)
			p.Wait = &w
		}
		r, e := c.GetRunWithResponse(ctx, gen.RunID(pos[0]), p)
		err = e
		if e == nil {
			resp, body = r, r.Body
		}
	case "runs create":
		if !need(1) {
			return ExitUsage
		}
		code, e := readSource(pos[0], env.Stdin)
		if e != nil {
			fmt.Fprintln(env.Stderr, "codemode:", e)
			return ExitUsage
		}
		req := map[string]any{"code": code}
		if *toolsets != "" {
			req["toolsets"] = strings.Split(*toolsets, ",")
		}
		payload, _ := json.Marshal(req)
		p := &gen.CreateRunParams{}
		if *wait > 0 {
			w := gen.Wait(*wait)
			p.Wait = &w
		}
		r, e := c.CreateRunWithBodyWithResponse(ctx, p, "application/json", bytes.NewReader(payload))
		err = e
		if e == nil {
			resp, body = r, r.Body
		}
	case "runs cancel":
		if !need(1) {
			return ExitUsage
		}
		r, e := c.CancelRunWithResponse(ctx, gen.RunID(pos[0]))
		err = e
		if e == nil {
			resp, body = r, r.Body
		}
	case "calls list":
		if !need(1) {
			return ExitUsage
		}
		r, e := c.ListCallsWithResponse(ctx, gen.RunID(pos[0]))
		err = e
		if e == nil {
			resp, body = r, r.Body
		}
	case "calls complete":
		if !need(2) {
			return ExitUsage
		}
		callID, e := strconv.Atoi(pos[1])
		if e != nil || (*value == "") == (*errMsg == "") {
			fmt.Fprintln(env.Stderr, "codemode calls complete RUN CALL (--value JSON | --error MESSAGE)")
			return ExitUsage
		}
		var outcome map[string]any
		if *errMsg != "" {
			outcome = map[string]any{"ok": false, "error": map[string]string{"message": *errMsg}}
		} else {
			if !json.Valid([]byte(*value)) {
				fmt.Fprintln(env.Stderr, "codemode: --value is not valid JSON")
				return ExitUsage
			}
			outcome = map[string]any{"ok": true, "value": json.RawMessage(*value)}
		}
		payload, _ := json.Marshal(outcome)
		r, e := c.PostOutcomeWithBodyWithResponse(ctx, gen.RunID(pos[0]), callID, "application/json", bytes.NewReader(payload))
		err = e
		if e == nil {
			resp, body = r, r.Body
		}
	case "toolsets list":
		r, e := c.ListToolsetsWithResponse(ctx)
		err = e
		if e == nil {
			resp, body = r, r.Body
		}
	case "toolsets add":
		if !need(2) {
			return ExitUsage
		}
		req := map[string]any{"name": pos[0], "url": pos[1]}
		if *secret != "" {
			req["secret"] = *secret
		}
		payload, _ := json.Marshal(req)
		r, e := c.CreateToolsetWithBodyWithResponse(ctx, "application/json", bytes.NewReader(payload))
		err = e
		if e == nil {
			resp, body = r, r.Body
		}
	default:
		fmt.Fprintf(env.Stderr, "codemode: unknown command %q\n\n%s", noun+" "+verb, clientUsage)
		return ExitUsage
	}
	if err != nil {
		fmt.Fprintln(env.Stderr, "codemode:", err)
		return ExitFailed
	}
	if resp.StatusCode() >= 300 {
		fmt.Fprintf(env.Stderr, "codemode: HTTP %d: %s\n", resp.StatusCode(), bytes.TrimSpace(body))
		return ExitFailed
	}
	fmt.Fprintf(env.Stdout, "%s\n", bytes.TrimSpace(body))
	return ExitOK
}

const clientUsage = `usage:
  codemode runs list [--status S] [--limit N] [--cursor C]
  codemode runs get ID [--wait SECONDS]
  codemode runs create FILE|- [--toolsets a,b] [--wait SECONDS]
  codemode runs cancel ID
  codemode calls list RUN
  codemode calls complete RUN CALL (--value JSON | --error MESSAGE)
  codemode toolsets list
  codemode toolsets add NAME URL [--secret S]
every verb takes --url (CODEMODE_URL, default http://127.0.0.1:8080) and --token (CODEMODE_API_TOKEN)
`
