package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/codemode/codemode/client"
)

// webhookEvents are the events a subscription may ask for.
var webhookEvents = []client.WebhookCreateEvents{
	client.WebhookCreateEventsRunSuspended, client.WebhookCreateEventsRunCompleted,
	client.WebhookCreateEventsRunFailed, client.WebhookCreateEventsRunCancelled,
	client.WebhookCreateEventsCallPending,
}

// eventsFlag reads --events: one or more of webhookEvents, comma-separated.
func eventsFlag(list string) ([]string, error) {
	names := splitNames(list)
	known := make([]string, len(webhookEvents))
	for i, e := range webhookEvents {
		known[i] = string(e)
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("--events %q: give one or more of %s, comma-separated", list, strings.Join(known, ", "))
	}
	for _, n := range names {
		if !client.WebhookCreateEvents(n).Valid() {
			return nil, fmt.Errorf("--events: %q is not an event (%s)", n, strings.Join(known, ", "))
		}
	}
	return names, nil
}

// newWebhooksCmd is `codemode webhooks <verb>`.
func newWebhooksCmd(cf *clientFlags, env Env) *cobra.Command {
	cmd := newGroup("webhooks", "Subscribe URLs to run events; list, change or delete subscriptions and redeliver", `  codemode webhooks create https://example.com/hooks --secret "$SECRET" --events run.completed,run.failed
  codemode webhooks list
  codemode webhooks update HOOK --disable
  codemode webhooks deliveries HOOK
  codemode webhooks redeliver msg_...`, cf, env)
	cmd.AddCommand(webhooksCreate(cf, env), webhooksList(cf, env), webhooksGet(cf, env), webhooksUpdate(cf, env),
		webhooksDelete(cf, env), webhooksDeliveries(cf, env), webhooksRedeliver(cf, env))
	return cmd
}

func webhooksCreate(cf *clientFlags, env Env) *cobra.Command {
	var secret, events string
	cmd := &cobra.Command{
		Use:   "create URL --secret SECRET --events EVENT,...",
		Short: "Subscribe URL to events of every run",
		Long: `Subscribe URL to events of every run: POSTs signed with --secret (Standard Webhooks; the
service never shows it again) for each of --events: run.suspended, run.completed, run.failed,
run.cancelled, call.pending.`,
		Example: `  codemode webhooks create https://example.com/hooks --secret "$SECRET" --events run.completed,run.failed`,
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			names, err := eventsFlag(events)
			if err != nil {
				return err
			}
			if secret == "" {
				return errors.New("give --secret: the deliveries are signed with it")
			}
			payload, _ := json.Marshal(map[string]any{"url": args[0], "secret": secret, "events": names})
			return cf.do(cmd, env, func(ctx context.Context, c *client.ClientWithResponses) (response, []byte, error) {
				r, err := c.CreateWebhookWithBodyWithResponse(ctx, "application/json", bytes.NewReader(payload))
				if err != nil {
					return nil, nil, err
				}
				return r, r.Body, nil
			})
		},
	}
	f := cmd.Flags()
	f.StringVar(&secret, "secret", "", "signing secret of the deliveries (whsec_<base64> or text)")
	f.StringVar(&events, "events", "", "comma-separated events: run.suspended, run.completed, run.failed, run.cancelled, call.pending")
	return cmd
}

func webhooksList(cf *clientFlags, env Env) *cobra.Command {
	return &cobra.Command{
		Use:     "list",
		Short:   "List webhook subscriptions, oldest first",
		Example: `  codemode webhooks list`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return cf.do(cmd, env, func(ctx context.Context, c *client.ClientWithResponses) (response, []byte, error) {
				r, err := c.ListWebhooksWithResponse(ctx)
				if err != nil {
					return nil, nil, err
				}
				return r, r.Body, nil
			})
		},
	}
}

func webhooksGet(cf *clientFlags, env Env) *cobra.Command {
	return byArg(cf, env, &cobra.Command{
		Use:     "get HOOK",
		Short:   "Print a webhook subscription",
		Example: `  codemode webhooks get 7f3a...`,
	}, func(ctx context.Context, c *client.ClientWithResponses, arg string) (response, []byte, error) {
		r, err := c.GetWebhookWithResponse(ctx, client.WebhookID(arg))
		if err != nil {
			return nil, nil, err
		}
		return r, r.Body, nil
	})
}

func webhooksUpdate(cf *clientFlags, env Env) *cobra.Command {
	var secret, events string
	var enable, disable bool
	cmd := &cobra.Command{
		Use:   "update HOOK [URL] [--events EVENT,...] [--secret SECRET] [--enable | --disable]",
		Short: "Change a subscription's URL, events or secret, or disable or enable it",
		Long: `Change a subscription: its URL (when given), --events, --secret; --disable stops its
deliveries, --enable starts them again and resets its count of failed deliveries. What is not
given is left as it is; deliveries still being attempted go to the new URL, signed with the new
secret.`,
		Example: `  codemode webhooks update 7f3a... https://example.com/hooks/v2
  codemode webhooks update 7f3a... --events run.failed --secret "$NEW_SECRET"
  codemode webhooks update 7f3a... --enable`,
		Args: cobra.RangeArgs(1, 2),
		RunE: func(cmd *cobra.Command, args []string) error {
			f := cmd.Flags()
			req := map[string]any{}
			if len(args) == 2 {
				req["url"] = args[1]
			}
			if f.Changed("events") {
				names, err := eventsFlag(events)
				if err != nil {
					return err
				}
				req["events"] = names
			}
			if f.Changed("secret") {
				if secret == "" {
					return errors.New("--secret: give a secret (the deliveries are signed with it)")
				}
				req["secret"] = secret
			}
			if enable && disable {
				return errors.New("give at most one of --enable and --disable")
			}
			if enable || disable {
				req["enabled"] = enable
			}
			if len(req) == 0 {
				return errors.New("nothing to change: give a URL, --events, --secret, --enable or --disable")
			}
			payload, _ := json.Marshal(req)
			return cf.do(cmd, env, func(ctx context.Context, c *client.ClientWithResponses) (response, []byte, error) {
				r, err := c.UpdateWebhookWithBodyWithResponse(ctx, client.WebhookID(args[0]), "application/json", bytes.NewReader(payload))
				if err != nil {
					return nil, nil, err
				}
				return r, r.Body, nil
			})
		},
	}
	f := cmd.Flags()
	f.StringVar(&events, "events", "", "the new comma-separated events")
	f.StringVar(&secret, "secret", "", "the new signing secret")
	f.BoolVar(&enable, "enable", false, "enable the subscription again (and reset its failure count)")
	f.BoolVar(&disable, "disable", false, "disable the subscription")
	return cmd
}

func webhooksDelete(cf *clientFlags, env Env) *cobra.Command {
	return byArg(cf, env, &cobra.Command{
		Use:     "delete HOOK",
		Short:   "Delete a webhook subscription and its deliveries (it prints nothing); pending ones are not sent",
		Example: `  codemode webhooks delete 7f3a...`,
	}, func(ctx context.Context, c *client.ClientWithResponses, arg string) (response, []byte, error) {
		r, err := c.DeleteWebhookWithResponse(ctx, client.WebhookID(arg))
		if err != nil {
			return nil, nil, err
		}
		return r, r.Body, nil
	})
}

func webhooksDeliveries(cf *clientFlags, env Env) *cobra.Command {
	var limit int
	cmd := &cobra.Command{
		Use:   "deliveries HOOK",
		Short: "List a subscription's deliveries, newest first",
		Example: `  codemode webhooks deliveries 7f3a...
  codemode webhooks deliveries 7f3a... --limit 10`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkLimit(limit); err != nil {
				return err
			}
			p := &client.ListWebhookDeliveriesParams{}
			if limit > 0 {
				p.Limit = &limit
			}
			return cf.do(cmd, env, func(ctx context.Context, c *client.ClientWithResponses) (response, []byte, error) {
				r, err := c.ListWebhookDeliveriesWithResponse(ctx, client.WebhookID(args[0]), p)
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

func webhooksRedeliver(cf *clientFlags, env Env) *cobra.Command {
	return byArg(cf, env, &cobra.Command{
		Use:   "redeliver DELIVERY",
		Short: "Send a delivered or failed delivery again, with fresh attempts and the same webhook-id",
		Long: `Send a delivered or failed delivery again (its id, msg_..., as "webhooks deliveries" or
"runs deliveries" list it), with fresh attempts and the same webhook-id, to its subscription's
current URL. A delivery still pending, or of a disabled subscription, is refused.`,
		Example: `  codemode webhooks redeliver msg_3f9c0a...`,
	}, func(ctx context.Context, c *client.ClientWithResponses, arg string) (response, []byte, error) {
		r, err := c.RedeliverWebhookWithResponse(ctx, arg)
		if err != nil {
			return nil, nil, err
		}
		return r, r.Body, nil
	})
}
