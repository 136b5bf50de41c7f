package durable

import "errors"

var (
	// ErrRunNotFound: no run has the given id.
	ErrRunNotFound = errors.New("run not found")
	// ErrCallNotFound: the run has no call with the given id.
	ErrCallNotFound = errors.New("call not found")
	// ErrToolsetNotFound: no toolset has the given name.
	ErrToolsetNotFound = errors.New("toolset not found")
	// ErrToolsetExists: a toolset with that name is already registered.
	ErrToolsetExists = errors.New("toolset already exists")
	// ErrToolsetInUse: a run not yet final may call the toolset, so it is not deleted without
	// force.
	ErrToolsetInUse = errors.New("toolset in use")
	// ErrIdempotencyConflict: the idempotency key was used before with a different request.
	ErrIdempotencyConflict = errors.New("idempotency key reused with a different request")
	// ErrOutcomeConflict: the call already has a different outcome, or it is not (or no longer)
	// waiting for one (a plain call, or a cancelled one).
	ErrOutcomeConflict = errors.New("call already settled with a different outcome or not pending")
	// ErrRunFinished: the run has already ended, so it cannot be cancelled.
	ErrRunFinished = errors.New("run already finished")
	// ErrLeaseLost: the driver's lease was taken over (a newer driver, or the run was cancelled);
	// the write was refused and the driver must stop.
	ErrLeaseLost = errors.New("run lease lost")
	// ErrInvalidCursor: a list cursor could not be decoded.
	ErrInvalidCursor = errors.New("invalid cursor")
	// ErrInvalidFilter: a list filter names something that cannot exist (a schedule id that
	// is not a UUID).
	ErrInvalidFilter = errors.New("invalid filter")
	// ErrWebhookNotFound: no webhook subscription has the given id.
	ErrWebhookNotFound = errors.New("webhook subscription not found")
	// ErrDeliveryNotFound: no webhook delivery has the given id.
	ErrDeliveryNotFound = errors.New("webhook delivery not found")
	// ErrDeliveryInProgress: the delivery is still being attempted (it is pending), so it
	// cannot be redelivered yet.
	ErrDeliveryInProgress = errors.New("webhook delivery still pending")
	// ErrPermanent is wrapped by an engine error that repeating cannot fix: an Engine.CancelCall
	// error (the toolset refused the cancel), whose call.cancel job is then not retried, or an
	// Engine.Start or Resume error (the run's stored toolsets make no runtime), whose run then
	// fails at once.
	ErrPermanent = errors.New("permanent failure")
	// ErrReplayDiverged: a re-driven program made, under a call id the run has a record of, a
	// call of another tool. The recorded outcome cannot answer it and driving the program
	// again would diverge again, so the run fails (ExecutionFailure) rather than be retried.
	ErrReplayDiverged = errors.New("the program diverged from its recorded calls")
	// ErrWebhookDisabled: the delivery's subscription is disabled; enable it first.
	ErrWebhookDisabled = errors.New("webhook subscription disabled")
)
