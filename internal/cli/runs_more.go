package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/codemode/codemode/client"
	"github.com/codemode/codemode/internal/sse"
)

func runsEvents(cf *clientFlags, env Env) *cobra.Command {
	var after int64
	var limit int
	var follow bool
	cmd := &cobra.Command{
		Use:   "events RUN",
		Short: "Print a run's events; with --follow, as they happen until the run has finished",
		Long: `Print a run's timeline: the service's answer {"events": [...]}, the events with a sequence
number above --after, at most --limit of them.

With --follow the events come as the service streams them (server-sent events), one JSON
event a line, until the run has finished (succeeded, failed or cancelled); a finished run's
events are printed at once. A suspended run keeps the stream open until it resumes and
finishes, or until interrupted. A stream that breaks before the run has finished is opened
again after the last event printed.`,
		Example: `  codemode runs events 0b9e...
  codemode runs events 0b9e... --after 8 --limit 100
  codemode runs events 0b9e... --follow
  codemode runs events 0b9e... --follow | jq -r 'select(.type == "log") | .data.text'`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if after < 0 {
				return fmt.Errorf("--after %d: give a sequence number, 0 or more", after)
			}
			if err := checkLimit(limit); err != nil {
				return err
			}
			if follow {
				if limit > 0 {
					return errors.New("--limit pages the listing; --follow prints every event")
				}
				return cf.followEvents(cmd, env, args[0], after)
			}
			p := &client.ListEventsParams{}
			if after > 0 {
				p.After = &after
			}
			if limit > 0 {
				p.Limit = &limit
			}
			return cf.do(cmd, env, func(ctx context.Context, c *client.ClientWithResponses) (response, []byte, error) {
				r, err := c.ListEventsWithResponse(ctx, client.RunID(args[0]), p)
				if err != nil {
					return nil, nil, err
				}
				return r, r.Body, nil
			})
		},
	}
	f := cmd.Flags()
	f.Int64Var(&after, "after", 0, "only the events with a sequence number above this")
	f.IntVar(&limit, "limit", 0, "page size (default: the service's)")
	f.BoolVar(&follow, "follow", false, "print the events as they happen, one a line, until the run has finished")
	return cmd
}

// reconnectPause is how long --follow waits before it opens again a stream that ended while
// the run had not finished.
var reconnectPause = time.Second

// followEvents prints the events of run id with a sequence number above after as the service
// streams them, one JSON event a line, until the run has finished.
func (f *clientFlags) followEvents(cmd *cobra.Command, env Env, id string, after int64) error {
	c, err := f.client()
	if err != nil {
		return err
	}
	ctx := cmd.Context()
	acceptStream := func(_ context.Context, req *http.Request) error {
		req.Header.Set("Accept", "text/event-stream")
		return nil
	}
	// The service ends a finished run's stream once every event was sent: a stream opened after
	// the run was seen finished, and ended without breaking, had them all.
	finishedSeen := false
	for {
		resp, err := c.ListEvents(ctx, client.RunID(id), &client.ListEventsParams{After: &after}, acceptStream)
		if err != nil {
			return f.noAnswer(cmd, err)
		}
		if resp.StatusCode != http.StatusOK {
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			return errorAnswer(resp.StatusCode, body)
		}
		if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/event-stream") {
			resp.Body.Close()
			return failed(fmt.Errorf("the service answered %q, not an event stream", ct))
		}
		var broken error
		after, broken = printEvents(resp.Body, env.Stdout, after)
		resp.Body.Close()
		if errors.Is(broken, sse.ErrLineTooLong) { // there again on the next stream
			return failed(fmt.Errorf("event after %d: %w", after, broken))
		}
		if ctx.Err() != nil {
			return failed(ctx.Err())
		}
		if finishedSeen && broken == nil {
			return nil
		}
		// A stream also ends when it breaks (a proxy, a restart).
		r, err := c.GetRunWithResponse(ctx, client.RunID(id), &client.GetRunParams{})
		if err != nil {
			return f.noAnswer(cmd, err)
		}
		if r.JSON200 == nil {
			return errorAnswer(r.StatusCode(), r.Body)
		}
		if r.JSON200.Finished() {
			finishedSeen = true
			continue // the events not yet printed: a finished run's stream ends at once
		}
		select {
		case <-ctx.Done():
			return failed(ctx.Err())
		case <-time.After(reconnectPause):
		}
	}
}

// printEvents writes the data of each server-sent event of r on a line of w and returns the
// sequence number of the last one (after when there was none) with the error that broke the
// stream, if any.
func printEvents(r io.Reader, w io.Writer, after int64) (int64, error) {
	for e, err := range sse.Read(r) {
		if err != nil {
			return after, err
		}
		if len(e.Data) == 0 {
			continue
		}
		seq, ok := eventSeq(e.ID, e.Data)
		if ok && seq <= after {
			continue // printed already (a stream that repeats itself)
		}
		fmt.Fprintf(w, "%s\n", e.Data)
		if ok {
			after = seq
		}
	}
	return after, nil
}

// eventSeq is the sequence number of a streamed event: its id, or else the seq of its data.
func eventSeq(id string, data []byte) (int64, bool) {
	if seq, err := strconv.ParseInt(id, 10, 64); err == nil {
		return seq, true
	}
	var e struct {
		Seq *int64 `json:"seq"`
	}
	if json.Unmarshal(data, &e) == nil && e.Seq != nil {
		return *e.Seq, true
	}
	return 0, false
}

func runsRetry(cf *clientFlags, env Env) *cobra.Command {
	var key string
	cmd := &cobra.Command{
		Use:   "retry RUN",
		Short: "Start a new run with the code, input, toolsets and limits of a failed or cancelled run",
		Long: `Start a new run with the code, input, toolsets and limits of a failed or cancelled run (not
its webhook). With --idempotency-key, a retry of the same run with the same key answers the run
the first one started; the key with another request is refused (HTTP 409).`,
		Example: `  codemode runs retry 0b9e...
  codemode runs retry 0b9e... --idempotency-key retry-0b9e-1
  codemode runs get "$(codemode runs retry 0b9e... | jq -r .id)" --wait 5`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			idem, err := idempotencyKey(cmd, key)
			if err != nil {
				return err
			}
			return cf.do(cmd, env, func(ctx context.Context, c *client.ClientWithResponses) (response, []byte, error) {
				r, err := c.RetryRunWithResponse(ctx, client.RunID(args[0]), &client.RetryRunParams{IdempotencyKey: idem})
				if err != nil {
					return nil, nil, err
				}
				return r, r.Body, nil
			})
		},
	}
	cmd.Flags().StringVar(&key, "idempotency-key", "", "the same retry again with this key answers the run the first started")
	return cmd
}

func runsFork(cf *clientFlags, env Env) *cobra.Command {
	var fromSnapshot int64
	var afterCall int
	var code, key string
	cmd := &cobra.Command{
		Use:   "fork RUN (--after-call CALL | --from-snapshot SEQ) [--code FILE|-] [--idempotency-key K]",
		Short: "Start a new run from a point of a run's history, its earlier calls answered from their records",
		Long: `Start a new run from a point of a run's history: the moment call CALL settled
(--after-call), or the snapshot of event SEQ (--from-snapshot; 0 is the run's start). The new
run executes the program of --code (a file, or stdin for -), or the original's, from the
beginning, with the original's input, toolsets and limits; the calls the original had settled
by that point are answered from their records, every later call is made anew. With
--idempotency-key, the same fork (run, point and code) with the same key answers the run the
first one started; the key with another request is refused (HTTP 409).`,
		Example: `  codemode runs fork 0b9e... --after-call 3
  codemode runs fork 0b9e... --after-call 3 --code fixed.js
  codemode runs fork 0b9e... --from-snapshot 0 --idempotency-key replay-0b9e`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			snapshot, call := cmd.Flags().Changed("from-snapshot"), cmd.Flags().Changed("after-call")
			if snapshot == call {
				return errors.New("give exactly one of --after-call and --from-snapshot")
			}
			idem, err := idempotencyKey(cmd, key)
			if err != nil {
				return err
			}
			req := map[string]any{}
			if snapshot {
				if fromSnapshot < 0 {
					return fmt.Errorf("--from-snapshot %d: give an event's sequence number, or 0 for the run's start", fromSnapshot)
				}
				req["fromSnapshot"] = fromSnapshot
			}
			if call {
				if afterCall < 1 {
					return fmt.Errorf("--after-call %d: give a call id (a number from 1)", afterCall)
				}
				req["afterCall"] = afterCall
			}
			if code != "" {
				src, err := readSource(code, env.Stdin)
				if err != nil {
					return err
				}
				req["code"] = src
			}
			payload, _ := json.Marshal(req)
			return cf.do(cmd, env, func(ctx context.Context, c *client.ClientWithResponses) (response, []byte, error) {
				r, err := c.ForkRunWithBodyWithResponse(ctx, client.RunID(args[0]), &client.ForkRunParams{IdempotencyKey: idem},
					"application/json", bytes.NewReader(payload))
				if err != nil {
					return nil, nil, err
				}
				return r, r.Body, nil
			})
		},
	}
	f := cmd.Flags()
	f.IntVar(&afterCall, "after-call", 0, "fork from the moment this call settled (a call id)")
	f.Int64Var(&fromSnapshot, "from-snapshot", 0, "fork from this snapshot (the seq of a checkpointed, suspended or yielded event; 0: the start)")
	f.StringVar(&code, "code", "", "run the program in this file (- for stdin) instead of the original's")
	f.StringVar(&key, "idempotency-key", "", "the same fork again with this key answers the run the first started")
	return cmd
}

func runsDeliveries(cf *clientFlags, env Env) *cobra.Command {
	var limit int
	cmd := &cobra.Command{
		Use:   "deliveries RUN",
		Short: "List the webhook deliveries of a run's events, newest first",
		Example: `  codemode runs deliveries 0b9e...
  codemode runs deliveries 0b9e... --limit 10`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkLimit(limit); err != nil {
				return err
			}
			p := &client.ListRunDeliveriesParams{}
			if limit > 0 {
				p.Limit = &limit
			}
			return cf.do(cmd, env, func(ctx context.Context, c *client.ClientWithResponses) (response, []byte, error) {
				r, err := c.ListRunDeliveriesWithResponse(ctx, client.RunID(args[0]), p)
				if err != nil {
					return nil, nil, err
				}
				return r, r.Body, nil
			})
		},
	}
	cmd.Flags().IntVar(&limit, "limit", 0, "how many deliveries (default: the service's)")
	return cmd
}

func toolsetsGet(cf *clientFlags, env Env) *cobra.Command {
	return byArg(cf, env, &cobra.Command{
		Use:     "get NAME",
		Short:   "Print a registered toolset with its tools",
		Example: `  codemode toolsets get ops`,
	}, func(ctx context.Context, c *client.ClientWithResponses, arg string) (response, []byte, error) {
		r, err := c.GetToolsetWithResponse(ctx, client.ToolsetName(arg))
		if err != nil {
			return nil, nil, err
		}
		return r, r.Body, nil
	})
}

func toolsetsUpdate(cf *clientFlags, env Env) *cobra.Command {
	var secret, description, tools, namespaces, auth, baseURL string
	cmd := &cobra.Command{
		Use:   "update NAME [URL]",
		Short: "Read a toolset's manifest again (from URL when given), changing its secret, description or credentials",
		Long: `Read a toolset's manifest again and store it as the toolset's new version: from URL, which
becomes the toolset's URL, or from the URL it has, or from --tools and --namespaces when given.
--secret (empty: unsigned calls) and --description are changed when given; so are --auth, the
credentials of an openapi or mcp toolset, and --base-url, the server of an openapi one. Runs
created before keep the manifest they were created with.`,
		Example: `  codemode toolsets update ops                            # read the manifest again
  codemode toolsets update ops http://127.0.0.1:8766
  codemode toolsets update ops --secret "$SECRET" --description 'Deploys and approvals'
  codemode toolsets update ops --tools '[{"path": "math.add", "description": "Add two numbers"}]'
  codemode toolsets update pets --auth '{"type": "bearer", "token": "'"$NEW_TOKEN"'"}'`,
		Args: cobra.RangeArgs(1, 2),
		RunE: func(cmd *cobra.Command, args []string) error {
			req := map[string]any{}
			if len(args) == 2 {
				req["url"] = args[1]
			}
			f := cmd.Flags()
			if f.Changed("secret") {
				req["secret"] = secret
			}
			if f.Changed("description") {
				req["description"] = description
			}
			if err := serverFields(req, baseURL, auth); err != nil {
				return err
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
			payload, _ := json.Marshal(req)
			return cf.do(cmd, env, func(ctx context.Context, c *client.ClientWithResponses) (response, []byte, error) {
				r, err := c.UpdateToolsetWithBodyWithResponse(ctx, client.ToolsetName(args[0]), "application/json", bytes.NewReader(payload))
				if err != nil {
					return nil, nil, err
				}
				return r, r.Body, nil
			})
		},
	}
	f := cmd.Flags()
	f.StringVar(&secret, "secret", "", "new signing secret shared with the toolset (empty: unsigned calls)")
	f.StringVar(&description, "description", "", "new description of the toolset's namespace")
	f.StringVar(&tools, "tools", "", "the manifest's tools inline (a JSON array); the URL is not read")
	f.StringVar(&namespaces, "namespaces", "", "the manifest's namespaces inline (a JSON array)")
	f.StringVar(&auth, "auth", "", `new credentials of an openapi or mcp toolset, as JSON: {"type": "bearer", "token": "..."}, apiKey (in, name, value) or basic (username, password)`)
	f.StringVar(&baseURL, "base-url", "", "new server of an openapi toolset's operations")
	return cmd
}

func toolsetsDelete(cf *clientFlags, env Env) *cobra.Command {
	var force bool
	cmd := &cobra.Command{
		Use:   "delete NAME",
		Short: "Remove a registered toolset",
		Long: `Remove a registered toolset; it prints nothing once done. The service refuses while runs
not yet finished may call the toolset, naming some of them; with --force it deletes it anyway
and their later calls to it fail.`,
		Example: `  codemode toolsets delete ops
  codemode toolsets delete ops --force`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			p := &client.DeleteToolsetParams{}
			if force {
				p.Force = &force
			}
			return cf.do(cmd, env, func(ctx context.Context, c *client.ClientWithResponses) (response, []byte, error) {
				r, err := c.DeleteToolsetWithResponse(ctx, client.ToolsetName(args[0]), p)
				if err != nil {
					return nil, nil, err
				}
				return r, r.Body, nil
			})
		},
	}
	cmd.Flags().BoolVar(&force, "force", false, "delete even while runs not yet finished may call the toolset")
	return cmd
}
