// Package config holds what the codemode processes (server, worker and codemode dev) share in
// their configuration: the logger they build from the log level.
package config
