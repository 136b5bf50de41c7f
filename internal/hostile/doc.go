// Package hostile holds the catalogue test of hostile data: programs, tool answers and API
// requests that PostgreSQL cannot store as they are, run against the real API handler, worker,
// run engine, toolsets and a real PostgreSQL. It has no code of its own.
package hostile
