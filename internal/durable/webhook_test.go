package durable

import (
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"
)

// A finished run's event goes to the run's own webhook and to every subscription to that
// event, and to nobody else.
func TestWebhookReceivers(t *testing.T) {
	t.Parallel()
	b := setup(t)
	completed, err := b.store.CreateSubscription(b.ctx, Subscription{URL: "http://127.0.0.1:1/completed", Secret: "whsec_c2Vjb25k", Events: []string{WebhookRunCompleted}})
	require.NoError(t, err)
	_, err = b.store.CreateSubscription(b.ctx, Subscription{URL: "http://127.0.0.1:1/failed", Secret: "whsec_dGhpcmQ=", Events: []string{WebhookRunFailed}})
	require.NoError(t, err)

	type delivery struct {
		SubID *string
		URL   string
	}
	deliveries := func(runID string) []delivery {
		rows, err := b.store.pool.Query(b.ctx, `SELECT subscription_id::text, url FROM webhook_deliveries
			WHERE run_id = $1 AND event_type = $2 ORDER BY url`, runID, WebhookRunCompleted)
		require.NoError(t, err)
		got, err := pgx.CollectRows(rows, pgx.RowToStructByPos[delivery])
		require.NoError(t, err)
		return got
	}

	withHook, _, err := b.store.CreateRun(b.ctx, NewRun{Code: "x", Webhook: &Webhook{URL: "http://127.0.0.1:1/own", Secret: "whsec_b3du"}})
	require.NoError(t, err)
	lease, _, err := b.store.acquire(b.ctx, withHook.ID, 1, 0)
	require.NoError(t, err)
	require.NoError(t, lease.finish(b.ctx, Outcome{Kind: Finished, OK: true}))
	require.Equal(t, []delivery{
		{SubID: &completed.ID, URL: "http://127.0.0.1:1/completed"},
		{URL: "http://127.0.0.1:1/own"},
	}, deliveries(withHook.ID))

	plain, _, err := b.store.CreateRun(b.ctx, NewRun{Code: "y"})
	require.NoError(t, err)
	lease, _, err = b.store.acquire(b.ctx, plain.ID, 2, 0)
	require.NoError(t, err)
	require.NoError(t, lease.finish(b.ctx, Outcome{Kind: Finished, OK: true}))
	require.Equal(t, []delivery{{SubID: &completed.ID, URL: "http://127.0.0.1:1/completed"}}, deliveries(plain.ID))

	events, err := b.store.ListEvents(b.ctx, plain.ID, 0, 10)
	require.NoError(t, err)
	require.Equal(t, EventFinished, events[len(events)-1].Type)
	require.JSONEq(t, `{"status":"succeeded"}`, string(events[len(events)-1].Data))
	require.Equal(t, int64(len(events)), events[len(events)-1].Seq)
}
