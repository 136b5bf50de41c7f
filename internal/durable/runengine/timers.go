package runengine

import (
	"github.com/codemode/codemode/internal/durable"
	"github.com/codemode/codemode/internal/toolset/runtools"
)

// builtinTimers reports whether a run on toolsets gets the built-in timers (tools.time.sleep
// and tools.time.sleepUntil): every run does, unless a toolset registered under the name
// time is mounted for it, which then replaces them (registering that name is the explicit
// choice to do so).
func builtinTimers(toolsets []durable.Toolset) bool {
	for _, ts := range toolsets {
		if ts.Name == runtools.TimeNamespace {
			return false
		}
	}
	return true
}
