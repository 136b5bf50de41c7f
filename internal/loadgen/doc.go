// Package loadgen drives a codemode service over its HTTP API and measures it: runs per
// second and latency percentiles for a trivial run, a run of sequential tool calls, and a run
// that suspends on a durable call and is resumed by an outcome POST. It serves its own
// toolset (package toolsettest) on a local port and can start the service itself (the same
// `codemode dev` users run, on a private PostgreSQL) when no service URL is given.
package loadgen
