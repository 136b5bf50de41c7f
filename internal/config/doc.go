// Package config is the configuration of the codemode processes (cmd/server, cmd/worker and
// codemode dev), parsed in one place: defaults, then environment variables, then flags, then
// one validation. It also builds their logger from the log level.
package config
