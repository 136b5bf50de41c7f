package loadgen

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// callDurationMetric is the service's own timing of its inline tool calls: from a call's
// start to its outcome in the run's hands, before the outcome is recorded (see
// docs/operations.md). Its mean over a scenario is the most the toolset's own time can be in
// what a call adds to a run: it also holds the service's side of the exchange (its HTTP
// client) and the wait for the run's goroutine to take the outcome.
const callDurationMetric = "codemode_worker_tool_call_duration_seconds"

// callTimes is the sum (seconds) and count of the calls callDurationMetric recorded so far,
// over every outcome.
type callTimes struct {
	sum   float64
	count uint64
}

// readCallTimes reads callDurationMetric from the service's /metrics. ok is false when the
// service serves no metrics there (metrics on another listener). A service that timed no call
// yet has no series of the metric: that is a count of 0.
func readCallTimes(ctx context.Context, c *http.Client, baseURL, token string) (t callTimes, ok bool, err error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, baseURL+"/metrics", nil)
	if err != nil {
		return t, false, err
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := c.Do(req)
	if err != nil {
		return t, false, fmt.Errorf("loadgen: read the service's metrics: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return t, false, nil
	}
	parser := expfmt.NewTextParser(model.UTF8Validation)
	families, err := parser.TextToMetricFamilies(resp.Body)
	if err != nil {
		return t, false, fmt.Errorf("loadgen: read the service's metrics: %w", err)
	}
	for _, m := range families[callDurationMetric].GetMetric() {
		if h := m.GetHistogram(); h != nil {
			t.sum += h.GetSampleSum()
			t.count += h.GetSampleCount()
		}
	}
	return t, true, nil
}

// meanCallTime is the mean duration of the calls recorded between before and after; 0 when
// none was.
func meanCallTime(before, after callTimes) time.Duration {
	if after.count <= before.count {
		return 0
	}
	return time.Duration((after.sum - before.sum) / float64(after.count-before.count) * float64(time.Second))
}
