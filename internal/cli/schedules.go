package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/codemode/codemode/client"
)

// newSchedulesCmd is `codemode schedules <verb>`.
func newSchedulesCmd(cf *clientFlags, env Env) *cobra.Command {
	cmd := newGroup("schedules", "Create, list, get, change, pause, resume or delete schedules", `  codemode schedules create report.js --cron '0 9 * * 1-5' --timezone Europe/Paris
  codemode schedules create poll.js --every 5m --overlap queue
  codemode schedules list
  codemode schedules update SCHEDULE --every 10m
  codemode schedules pause SCHEDULE`, cf, env)
	cmd.AddCommand(schedulesCreate(cf, env), schedulesList(cf, env), schedulesGet(cf, env), schedulesUpdate(cf, env),
		schedulesPause(cf, env), schedulesResume(cf, env), schedulesDelete(cf, env))
	return cmd
}

func schedulesCreate(cf *clientFlags, env Env) *cobra.Command {
	var cron, every, timezone, overlap, toolsets, input string
	var limits limitFlags
	cmd := &cobra.Command{
		Use:   "create FILE|- (--cron EXPR | --every DURATION)",
		Short: "Create a schedule that starts a run of the program in FILE (or stdin for -) at every tick",
		Long: `Create a schedule that starts a run of the program in FILE (or stdin for -) at every tick of
a cron expression (--cron, read in --timezone, default UTC) or of a fixed interval (--every,
from now). Each tick starts at most one run; --overlap says what a tick does while a run the
schedule started has not finished: skip (the default) starts none, queue starts it once that
run has finished, allow starts it anyway. --timeout-ms, --max-tool-calls, --max-output-bytes
and --max-memory-bytes lower the service's limits for every run (a limit left out is the
service's).`,
		Example: `  codemode schedules create report.js --cron '0 9 * * 1-5' --timezone Europe/Paris
  codemode schedules create poll.js --every 5m --overlap queue --toolsets ops --timeout-ms 30000
  echo 'return input.n * 2' | codemode schedules create - --cron @hourly --input '{"n": 21}'`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if (cron == "") == (every == "") {
				return errors.New("give exactly one of --cron and --every")
			}
			if overlap != "" && !client.ScheduleCreateOverlap(overlap).Valid() {
				return fmt.Errorf("--overlap %q: give skip, queue or allow", overlap)
			}
			in, err := jsonFlag("input", input)
			if err != nil {
				return err
			}
			lim, err := limits.parse(cmd)
			if err != nil {
				return err
			}
			code, err := readSource(args[0], env.Stdin)
			if err != nil {
				return err
			}
			req := map[string]any{"code": code}
			if cron != "" {
				req["cron"] = cron
			}
			if every != "" {
				req["every"] = every
			}
			if timezone != "" {
				req["timezone"] = timezone
			}
			if overlap != "" {
				req["overlap"] = overlap
			}
			if names := splitNames(toolsets); len(names) > 0 {
				req["toolsets"] = names
			}
			if in != nil {
				req["input"] = in
			}
			if lim != nil {
				req["limits"] = lim
			}
			payload, _ := json.Marshal(req)
			return cf.do(cmd, env, func(ctx context.Context, c *client.ClientWithResponses) (response, []byte, error) {
				r, err := c.CreateScheduleWithBodyWithResponse(ctx, "application/json", bytes.NewReader(payload))
				if err != nil {
					return nil, nil, err
				}
				return r, r.Body, nil
			})
		},
	}
	f := cmd.Flags()
	f.StringVar(&cron, "cron", "", "cron expression: five fields, six with seconds first, or @hourly, @daily, @every 90s, ...")
	f.StringVar(&every, "every", "", "fixed interval, at least 1s (90s, 5m, 1h30m)")
	f.StringVar(&timezone, "timezone", "", "IANA time zone of --cron (default: UTC)")
	f.StringVar(&overlap, "overlap", "", "skip, queue or allow: a tick while a run it started has not finished (default: skip)")
	f.StringVar(&toolsets, "toolsets", "", "comma-separated toolset names (default: all)")
	f.StringVar(&input, "input", "", "JSON every run reads as the global input")
	limits.add(cmd)
	return cmd
}

func schedulesList(cf *clientFlags, env Env) *cobra.Command {
	var cursor string
	var limit int
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List schedules, oldest first, a page at a time",
		Example: `  codemode schedules list
  codemode schedules list --limit 20 --cursor "$NEXT"   # next: of the page before`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := checkLimit(limit); err != nil {
				return err
			}
			p := &client.ListSchedulesParams{}
			if limit > 0 {
				p.Limit = &limit
			}
			if cursor != "" {
				p.Cursor = &cursor
			}
			return cf.do(cmd, env, func(ctx context.Context, c *client.ClientWithResponses) (response, []byte, error) {
				r, err := c.ListSchedulesWithResponse(ctx, p)
				if err != nil {
					return nil, nil, err
				}
				return r, r.Body, nil
			})
		},
	}
	f := cmd.Flags()
	f.IntVar(&limit, "limit", 0, "page size (default: the service's)")
	f.StringVar(&cursor, "cursor", "", "the page after this cursor (next of the previous page)")
	return cmd
}

func schedulesGet(cf *clientFlags, env Env) *cobra.Command {
	return byArg(cf, env, &cobra.Command{
		Use:     "get SCHEDULE",
		Short:   "Print a schedule with its latest ticks",
		Example: `  codemode schedules get 5c1d...`,
	}, func(ctx context.Context, c *client.ClientWithResponses, arg string) (response, []byte, error) {
		r, err := c.GetScheduleWithResponse(ctx, client.ScheduleID(arg))
		if err != nil {
			return nil, nil, err
		}
		return r, r.Body, nil
	})
}

func schedulesUpdate(cf *clientFlags, env Env) *cobra.Command {
	var code, cron, every, timezone, overlap, toolsets, input string
	var allToolsets bool
	var limits limitFlags
	cmd := &cobra.Command{
		Use:   "update SCHEDULE [--code FILE|-] [--cron EXPR | --every DURATION] [--timezone TZ] [--overlap O] [--toolsets a,b | --all-toolsets] [--input JSON] [--timeout-ms N ...]",
		Short: "Change a schedule's program, input, toolsets, limits, timing or overlap",
		Long: `Change a schedule: what is given replaces the schedule's, the rest is kept. --cron or --every
replaces the timing (the other is dropped); with --cron, --every or --timezone the next tick
becomes the first after now under the new timing. The limits given (--timeout-ms,
--max-tool-calls, --max-output-bytes, --max-memory-bytes) replace the schedule's limits
together: one left out is then the service's. --input null removes the input, and
--all-toolsets the toolset list (later runs may use every toolset). Every later tick starts its
run with the change; the runs started before keep what they had.`,
		Example: `  codemode schedules update 5c1d... --every 10m
  codemode schedules update 5c1d... --code report-v2.js --input '{"team": "ops"}'
  codemode schedules update 5c1d... --input null --all-toolsets
  codemode schedules update 5c1d... --timeout-ms 60000 --max-tool-calls 50
  codemode schedules update 5c1d... --cron '0 8 * * *' --timezone America/New_York --overlap queue`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			f := cmd.Flags()
			if cron != "" && every != "" {
				return errors.New("give at most one of --cron and --every")
			}
			if overlap != "" && !client.ScheduleUpdateOverlap(overlap).Valid() {
				return fmt.Errorf("--overlap %q: give skip, queue or allow", overlap)
			}
			in, err := jsonFlag("input", input)
			if err != nil {
				return err
			}
			lim, err := limits.parse(cmd)
			if err != nil {
				return err
			}
			req := map[string]any{}
			for _, s := range []struct{ field, value string }{{"cron", cron}, {"every", every}, {"timezone", timezone}, {"overlap", overlap}} {
				if s.value != "" {
					req[s.field] = s.value
				}
			}
			if f.Changed("toolsets") && allToolsets {
				return errors.New("give at most one of --toolsets and --all-toolsets")
			}
			if f.Changed("toolsets") {
				names := splitNames(toolsets)
				if len(names) == 0 {
					return fmt.Errorf("--toolsets %q: name one or more toolsets", toolsets)
				}
				req["toolsets"] = names
			}
			if allToolsets {
				req["toolsets"] = nil // null: every toolset
			}
			if in != nil {
				req["input"] = in
			}
			if lim != nil {
				req["limits"] = lim
			}
			if code != "" {
				src, err := readSource(code, env.Stdin)
				if err != nil {
					return err
				}
				req["code"] = src
			}
			if len(req) == 0 {
				return errors.New("nothing to change: give --code, --cron, --every, --timezone, --overlap, --toolsets, --all-toolsets, --input " +
					"or limits (--timeout-ms, --max-tool-calls, --max-output-bytes, --max-memory-bytes)")
			}
			payload, _ := json.Marshal(req)
			return cf.do(cmd, env, func(ctx context.Context, c *client.ClientWithResponses) (response, []byte, error) {
				r, err := c.UpdateScheduleWithBodyWithResponse(ctx, client.ScheduleID(args[0]), "application/json", bytes.NewReader(payload))
				if err != nil {
					return nil, nil, err
				}
				return r, r.Body, nil
			})
		},
	}
	f := cmd.Flags()
	f.StringVar(&code, "code", "", "the program in this file (- for stdin) instead of the schedule's")
	f.StringVar(&cron, "cron", "", "new cron expression (replaces --every)")
	f.StringVar(&every, "every", "", "new fixed interval, at least 1s (replaces --cron)")
	f.StringVar(&timezone, "timezone", "", "new IANA time zone of the cron expression")
	f.StringVar(&overlap, "overlap", "", "skip, queue or allow: a tick while a run it started has not finished")
	f.StringVar(&toolsets, "toolsets", "", "comma-separated toolset names, replacing the schedule's")
	f.BoolVar(&allToolsets, "all-toolsets", false, "let later runs use every registered toolset (drops the schedule's list)")
	f.StringVar(&input, "input", "", "JSON every later run reads as the global input (null: none)")
	limits.add(cmd)
	return cmd
}

func schedulesPause(cf *clientFlags, env Env) *cobra.Command {
	return byArg(cf, env, &cobra.Command{
		Use:     "pause SCHEDULE",
		Short:   "Stop a schedule from starting runs (runs already started go on)",
		Example: `  codemode schedules pause 5c1d...`,
	}, func(ctx context.Context, c *client.ClientWithResponses, arg string) (response, []byte, error) {
		r, err := c.PauseScheduleWithResponse(ctx, client.ScheduleID(arg))
		if err != nil {
			return nil, nil, err
		}
		return r, r.Body, nil
	})
}

func schedulesResume(cf *clientFlags, env Env) *cobra.Command {
	return byArg(cf, env, &cobra.Command{
		Use:     "resume SCHEDULE",
		Short:   "Start a paused schedule again, from its first tick after now",
		Example: `  codemode schedules resume 5c1d...`,
	}, func(ctx context.Context, c *client.ClientWithResponses, arg string) (response, []byte, error) {
		r, err := c.ResumeScheduleWithResponse(ctx, client.ScheduleID(arg))
		if err != nil {
			return nil, nil, err
		}
		return r, r.Body, nil
	})
}

func schedulesDelete(cf *clientFlags, env Env) *cobra.Command {
	return byArg(cf, env, &cobra.Command{
		Use:     "delete SCHEDULE",
		Short:   "Delete a schedule (it prints nothing); the runs it started keep their link to it",
		Example: `  codemode schedules delete 5c1d...`,
	}, func(ctx context.Context, c *client.ClientWithResponses, arg string) (response, []byte, error) {
		r, err := c.DeleteScheduleWithResponse(ctx, client.ScheduleID(arg))
		if err != nil {
			return nil, nil, err
		}
		return r, r.Body, nil
	})
}
