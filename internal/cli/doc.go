// Package cli implements the codemode command: dev (the service on a private PostgreSQL),
// eval (one program in process), migrate, and client verbs over the HTTP API. The commands are
// cobra commands, so flags may come before or after positional arguments and every command
// answers -h. Every command writes through injected io.Writers so it can be tested;
// cmd/codemode only calls Main.
package cli
