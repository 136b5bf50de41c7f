// Package pgcluster creates, starts and stops a private PostgreSQL cluster in a directory, using
// the PostgreSQL server binaries installed on the machine (initdb, pg_ctl, postgres).
//
// The cluster listens on a Unix socket only (listen_addresses is empty), trusts local
// connections as the "postgres" superuser, and is meant for tests and for `codemode dev`; it is
// not a production database. When the process runs as root, PostgreSQL refuses to run, so every
// server command is run as the operating-system user "postgres" and the cluster directory is
// owned by that user.
package pgcluster
