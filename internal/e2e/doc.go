// Package e2e holds end-to-end tests of the service: real cmd/server and cmd/worker processes,
// a real toolset server process and a real PostgreSQL, driven over HTTP. It has no code of its
// own beyond the tests.
package e2e
