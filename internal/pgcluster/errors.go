package pgcluster

import "errors"

// ErrNotInstalled is returned when the PostgreSQL server binaries cannot be found. Its message
// names the Debian package to install and the DATABASE_URL alternative.
var ErrNotInstalled = errors.New("PostgreSQL server binaries (initdb, pg_ctl, postgres) not found: " +
	"install them (Debian/Ubuntu: apt-get install postgresql) or put their directory on PATH, " +
	"or point DATABASE_URL at an existing PostgreSQL server instead")

// ErrNoPostgresUser is returned when running as root and the operating-system user "postgres",
// under which the server must run, does not exist.
var ErrNoPostgresUser = errors.New(`running as root needs the operating-system user "postgres" ` +
	`to run the PostgreSQL server (Debian: apt-get install postgresql creates it)`)

// ErrAlreadyRunning is returned by Start when a server is already running on the cluster's
// data directory (for example one left behind by a `codemode dev` that was killed).
var ErrAlreadyRunning = errors.New("a PostgreSQL server is already running on this data directory")

// ErrNotInitialized is returned by Start when the data directory has not been created by Init.
var ErrNotInitialized = errors.New("PostgreSQL data directory not initialized")
