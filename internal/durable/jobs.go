package durable

import (
	"github.com/riverqueue/river"
)

// ExecuteArgs is the run.execute job: drive a new run from its source. One per run: it is
// inserted only in the transaction that inserts the run, under a new id, so it needs no unique
// key (which would cost a hash on insert and an entry in River's unique index).
type ExecuteArgs struct {
	// RunID is the run to drive.
	RunID string `json:"run_id"`
}

// Kind implements river.JobArgs.
func (ExecuteArgs) Kind() string { return "run.execute" }

// InsertOpts puts the job on the runs queue.
func (ExecuteArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: QueueRuns}
}

// ResumeArgs is the run.resume job: continue a run from snapshot Seq with the outcomes that
// have arrived. Unique per (run, snapshot sequence): however many outcomes are posted for one
// suspension, the run resumes once from it; the next suspension has a new sequence.
type ResumeArgs struct {
	// RunID is the run to resume.
	RunID string `json:"run_id" river:"unique"`
	// Seq is the snapshot sequence the run was suspended (or yielded) at.
	Seq int `json:"seq" river:"unique"`
}

// Kind implements river.JobArgs.
func (ResumeArgs) Kind() string { return "run.resume" }

// InsertOpts makes the job unique per run and snapshot sequence.
func (ResumeArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: QueueRuns, UniqueOpts: river.UniqueOpts{ByArgs: true}}
}

// WebhookArgs is the webhook.deliver job: POST one stored delivery, retried with River's
// exponential backoff until it is accepted (2xx) or attempts run out.
type WebhookArgs struct {
	// DeliveryID is the delivery, also its webhook-id header.
	DeliveryID string `json:"delivery_id" river:"unique"`
	// Redelivery counts the redeliveries asked for by hand (0 for the first delivery): each
	// is a job of its own, with fresh attempts, under the same webhook-id.
	Redelivery int `json:"redelivery,omitempty" river:"unique"`
}

// Kind implements river.JobArgs.
func (WebhookArgs) Kind() string { return "webhook.deliver" }

// InsertOpts makes the job unique per delivery.
func (WebhookArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: QueueDelivery, UniqueOpts: river.UniqueOpts{ByArgs: true}}
}

// CancelCallArgs is the call.cancel job: tell a toolset to cancel the durable work of a call
// whose run ended or was cancelled while it was pending.
type CancelCallArgs struct {
	// RunID is the call's run.
	RunID string `json:"run_id" river:"unique"`
	// CallID is the call.
	CallID int `json:"call_id" river:"unique"`
}

// Kind implements river.JobArgs.
func (CancelCallArgs) Kind() string { return "call.cancel" }

// InsertOpts makes the job unique per call.
func (CancelCallArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: QueueDelivery, UniqueOpts: river.UniqueOpts{ByArgs: true}}
}

// RedriveArgs is the run.redrive job: drive again a run put back on the queue while it was
// running, because its worker stopped heartbeating or ran out of time draining. It continues
// from snapshot Seq (0: from the source). Unique per (run, fence): each re-drive has its own.
type RedriveArgs struct {
	// RunID is the run to drive.
	RunID string `json:"run_id" river:"unique"`
	// Fence is the run's fencing sequence when it was put back on the queue.
	Fence int64 `json:"fence" river:"unique"`
	// Seq is the run's latest snapshot then.
	Seq int `json:"seq"`
}

// Kind implements river.JobArgs.
func (RedriveArgs) Kind() string { return "run.redrive" }

// InsertOpts makes the job unique per run and fence.
func (RedriveArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: QueueRuns, UniqueOpts: river.UniqueOpts{ByArgs: true}}
}
