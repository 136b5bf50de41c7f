// Package pgtest is the PostgreSQL test harness: it gives each test its own freshly migrated
// database, so database tests run in parallel against a real server.
//
// When TEST_DATABASE_URL is unset, Main starts one throw-away cluster per test binary (see
// internal/pgcluster) in a temporary directory and stops it when the tests end. When it is set,
// that server is used (the role needs CREATEDB). Either way the schema is migrated once into a
// template database and each NewDB clones it with CREATE DATABASE ... TEMPLATE.
//
// Main also fails the run when goroutines are left over after passing tests (goleak).
//
// Use it from TestMain:
//
//	func TestMain(m *testing.M) { pgtest.Main(m) }
package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"go.uber.org/goleak"

	"github.com/codemode/codemode/internal/durable/migrate"
	"github.com/codemode/codemode/internal/pgcluster"
)

// EnvURL names the variable holding an existing server's connection string; when unset a
// private cluster is started.
const EnvURL = "TEST_DATABASE_URL"

var (
	mu       sync.Mutex
	adminURL string // connection string to an administrative database on the server
	template string // name of the migrated template database, once made
	started  bool   // Main ran
	afterRun []func()
)

// AfterRun registers fn to run once the package's tests have run (in Main, before it exits),
// for what the tests of a package share and must not leave behind: a directory of binaries
// built once, say.
func AfterRun(fn func()) {
	mu.Lock()
	defer mu.Unlock()
	afterRun = append(afterRun, fn)
}

// Main runs the tests of a package with a PostgreSQL server available and exits with their
// status. It starts (and afterwards stops and removes) a private cluster unless
// TEST_DATABASE_URL is set, and drops the template database at the end.
func Main(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	ctx := context.Background()
	started = true
	if u := os.Getenv(EnvURL); u != "" {
		adminURL = u
	} else {
		stop, err := startCluster(ctx)
		if err != nil {
			fmt.Fprintln(os.Stderr, "pgtest:", err)
			return 1
		}
		defer stop()
	}
	code := m.Run()
	mu.Lock()
	cleanups := afterRun
	mu.Unlock()
	for _, fn := range cleanups {
		fn()
	}
	if code == 0 {
		// Every test stopped what it started (pools, River clients, servers).
		if err := goleak.Find(
			goleak.IgnoreTopFunction("net/http.(*persistConn).readLoop"),
			goleak.IgnoreTopFunction("net/http.(*persistConn).writeLoop"),
			goleak.IgnoreTopFunction("internal/poll.runtime_pollWait"),
		); err != nil {
			fmt.Fprintln(os.Stderr, "pgtest: goroutines leaked:", err)
			code = 1
		}
	}
	if template != "" {
		if err := dropDatabase(ctx, template); err != nil {
			fmt.Fprintln(os.Stderr, "pgtest:", err)
		}
	}
	return code
}

func startCluster(ctx context.Context) (func(), error) {
	dir, err := os.MkdirTemp("", "pgtest")
	if err != nil {
		return nil, fmt.Errorf("temp dir: %w", err)
	}
	// The server may run as the postgres user, which must reach the directory.
	if err := os.Chmod(dir, 0o711); err != nil {
		return nil, fmt.Errorf("chmod %s: %w", dir, err)
	}
	c, err := pgcluster.New(pgcluster.Config{Dir: dir + "/pg", Settings: map[string]string{
		"fsync": "off", "synchronous_commit": "off", "full_page_writes": "off", "max_connections": "300",
		"shared_buffers": "32MB",
	}})
	if err != nil {
		_ = os.RemoveAll(dir)
		return nil, err
	}
	if err := c.Init(ctx); err != nil {
		_ = os.RemoveAll(dir)
		return nil, err
	}
	if err := c.Start(ctx); err != nil {
		_ = os.RemoveAll(dir)
		return nil, err
	}
	adminURL = c.URL("postgres")
	return func() {
		if err := c.Stop(context.Background()); err != nil {
			fmt.Fprintln(os.Stderr, "pgtest:", err)
		}
		_ = os.RemoveAll(dir)
	}, nil
}

// NewDB creates a database for the test, cloned from the migrated template, and returns a pool
// connected to it and its connection string. The pool is closed and the database dropped when
// the test ends.
func NewDB(t testing.TB) (*pgxpool.Pool, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	tmpl, err := ensureTemplate(ctx)
	if err != nil {
		t.Fatalf("pgtest: %v", err)
	}
	name := "t_" + randomSuffix()
	if err := exec(ctx, adminURL, fmt.Sprintf("CREATE DATABASE %s TEMPLATE %s", name, tmpl)); err != nil {
		t.Fatalf("pgtest: create database: %v", err)
	}
	u := WithDatabase(adminURL, name)
	pool, err := pgxpool.New(ctx, u)
	if err != nil {
		t.Fatalf("pgtest: connect: %v", err)
	}
	t.Cleanup(func() {
		pool.Close()
		if err := dropDatabase(context.Background(), name); err != nil {
			t.Errorf("pgtest: %v", err)
		}
	})
	return pool, u
}

func ensureTemplate(ctx context.Context) (string, error) {
	mu.Lock()
	defer mu.Unlock()
	if !started {
		return "", fmt.Errorf("call pgtest.Main(m) from the package's TestMain")
	}
	if template != "" {
		return template, nil
	}
	name := "tmpl_" + randomSuffix()
	if err := exec(ctx, adminURL, "CREATE DATABASE "+name); err != nil {
		return "", fmt.Errorf("create template: %w", err)
	}
	pool, err := pgxpool.New(ctx, WithDatabase(adminURL, name))
	if err != nil {
		return "", fmt.Errorf("connect template: %w", err)
	}
	err = migrate.Up(ctx, pool)
	pool.Close()
	if err != nil {
		_ = dropDatabase(ctx, name)
		return "", fmt.Errorf("migrate template: %w", err)
	}
	template = name
	return name, nil
}

func dropDatabase(ctx context.Context, name string) error {
	if err := exec(ctx, adminURL, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
		return fmt.Errorf("drop database %s: %w", name, err)
	}
	return nil
}

func exec(ctx context.Context, connURL, sql string) error {
	conn, err := pgx.Connect(ctx, connURL)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	_, err = conn.Exec(ctx, sql)
	return err
}

// WithDatabase returns the connection string u with its database replaced by name. It accepts
// URL-form connection strings (postgres://...).
func WithDatabase(u, name string) string {
	parsed, err := url.Parse(u)
	if err != nil || !strings.HasPrefix(parsed.Scheme, "postgres") {
		return u + " dbname=" + name
	}
	parsed.Path = "/" + name
	return parsed.String()
}

func randomSuffix() string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
