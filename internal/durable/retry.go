package durable

import "github.com/riverqueue/river/rivertype"

// retryOf describes a drive River makes again after a failed one (attempt > 1): the attempt
// number and the error of the attempt before, for the run's "retried" event and a WARN log.
// It is nil for a first attempt.
func retryOf(job *rivertype.JobRow) map[string]any {
	if job == nil || job.Attempt <= 1 {
		return nil
	}
	note := map[string]any{"attempt": job.Attempt, "maxAttempts": job.MaxAttempts}
	if n := len(job.Errors); n > 0 {
		note["error"] = job.Errors[n-1].Error
	} else {
		note["error"] = "the previous attempt did not finish (its worker stopped or crashed)"
	}
	return note
}
