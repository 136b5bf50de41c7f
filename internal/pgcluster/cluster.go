package pgcluster

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
)

// maxSocketPath is the longest socket file path used; the kernel limit (sun_path) is 108 bytes
// on Linux and 104 on macOS, so paths are kept below 100 bytes.
const maxSocketPath = 100

// SuperUser is the database superuser every cluster is created with; local connections are
// trusted, so it needs no password.
const SuperUser = "postgres"

// Config configures a Cluster.
type Config struct {
	// Dir is the cluster's directory (required). The data directory is Dir/data, the server log
	// Dir/postgres.log, and the Unix socket lives in Dir/run when that path is short enough,
	// otherwise in a short temporary directory created at Start.
	Dir string
	// BinDir is the directory holding initdb, pg_ctl and postgres. Default: the directory of
	// pg_ctl found on PATH, else the newest /usr/lib/postgresql/*/bin.
	BinDir string
	// Port is the port number naming the socket file (.s.PGSQL.<Port>); no TCP port is opened.
	// Default 5432.
	Port int
	// Settings are extra server settings (name → value) passed at start, for example
	// {"fsync": "off"} for throw-away test clusters. Default none.
	Settings map[string]string
	// Logger receives progress messages. Default: discard.
	Logger *slog.Logger
}

// WithDefaults returns a copy of the config with defaults filled in.
func (c Config) WithDefaults() Config {
	if c.Port == 0 {
		c.Port = 5432
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	return c
}

func (c Config) validate() error {
	if c.Dir == "" {
		return errors.New("pgcluster: Dir is required")
	}
	if c.Port <= 0 || c.Port > 65535 {
		return fmt.Errorf("pgcluster: invalid Port %d", c.Port)
	}
	return nil
}

// Cluster is a private PostgreSQL cluster in a directory. It is not safe for concurrent use.
type Cluster struct {
	cfg       Config
	dir       string // absolute
	binDir    string
	runAs     *syscall.Credential // nil unless running as root
	socketDir string              // set by Start
	tmpSocket bool                // socketDir is a temporary directory to remove at Stop
}

// New checks the configuration and locates the PostgreSQL binaries. It returns an error
// wrapping ErrNotInstalled when they are missing, and ErrNoPostgresUser when running as root
// without a "postgres" user.
func New(cfg Config) (*Cluster, error) {
	cfg = cfg.WithDefaults()
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	dir, err := filepath.Abs(cfg.Dir)
	if err != nil {
		return nil, fmt.Errorf("pgcluster: resolve %s: %w", cfg.Dir, err)
	}
	binDir := cfg.BinDir
	if binDir == "" {
		binDir, err = FindBinDir()
		if err != nil {
			return nil, err
		}
	} else if err := checkBinDir(binDir); err != nil {
		return nil, err
	}
	c := &Cluster{cfg: cfg, dir: dir, binDir: binDir}
	if os.Geteuid() == 0 {
		cred, err := postgresCredential()
		if err != nil {
			return nil, err
		}
		c.runAs = cred
	}
	return c, nil
}

// FindBinDir returns the directory holding the PostgreSQL server binaries: the directory of
// pg_ctl on PATH (symbolic links resolved), else the newest /usr/lib/postgresql/*/bin. The
// error wraps ErrNotInstalled.
func FindBinDir() (string, error) {
	if p, err := exec.LookPath("pg_ctl"); err == nil {
		if real, err := filepath.EvalSymlinks(p); err == nil {
			p = real
		}
		if dir := filepath.Dir(p); checkBinDir(dir) == nil {
			return dir, nil
		}
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool { return versionOf(dirs[i]) > versionOf(dirs[j]) })
	for _, dir := range dirs {
		if checkBinDir(dir) == nil {
			return dir, nil
		}
	}
	return "", ErrNotInstalled
}

func versionOf(binDir string) float64 {
	v, _ := strconv.ParseFloat(filepath.Base(filepath.Dir(binDir)), 64)
	return v
}

func checkBinDir(dir string) error {
	for _, name := range []string{"initdb", "pg_ctl", "postgres"} {
		info, err := os.Stat(filepath.Join(dir, name))
		if err != nil || info.IsDir() || info.Mode()&0o111 == 0 {
			return fmt.Errorf("%w (looked for %s in %s)", ErrNotInstalled, name, dir)
		}
	}
	return nil
}

func postgresCredential() (*syscall.Credential, error) {
	u, err := user.Lookup("postgres")
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNoPostgresUser, err)
	}
	uid, err := strconv.ParseUint(u.Uid, 10, 32)
	if err != nil {
		return nil, fmt.Errorf("pgcluster: uid of postgres %q: %w", u.Uid, err)
	}
	gid, err := strconv.ParseUint(u.Gid, 10, 32)
	if err != nil {
		return nil, fmt.Errorf("pgcluster: gid of postgres %q: %w", u.Gid, err)
	}
	return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid), NoSetGroups: true}, nil
}

// Dir returns the cluster's absolute directory.
func (c *Cluster) Dir() string { return c.dir }

// BinDir returns the directory of the PostgreSQL binaries in use.
func (c *Cluster) BinDir() string { return c.binDir }

func (c *Cluster) dataDir() string { return filepath.Join(c.dir, "data") }

// LogFile returns the path of the server's log file.
func (c *Cluster) LogFile() string { return filepath.Join(c.dir, "postgres.log") }

// Initialized reports whether the data directory has been created.
func (c *Cluster) Initialized() bool {
	_, err := os.Stat(filepath.Join(c.dataDir(), "PG_VERSION"))
	return err == nil
}

// Init creates the cluster directory and runs initdb, unless the data directory already exists.
func (c *Cluster) Init(ctx context.Context) error {
	if err := os.MkdirAll(c.dir, 0o700); err != nil {
		return fmt.Errorf("pgcluster: create %s: %w", c.dir, err)
	}
	if err := c.checkReachable(); err != nil {
		return err
	}
	if err := c.chown(c.dir); err != nil {
		return err
	}
	if c.Initialized() {
		return nil
	}
	c.cfg.Logger.InfoContext(ctx, "creating PostgreSQL cluster", "dir", c.dataDir())
	_, err := c.run(ctx, "initdb", "-D", c.dataDir(), "-U", SuperUser, "--auth=trust",
		"--encoding=UTF8", "--no-locale", "--no-sync")
	if err != nil {
		return fmt.Errorf("pgcluster: initdb: %w", err)
	}
	return nil
}

// Start starts the server and waits until it accepts connections. It returns ErrNotInitialized
// before Init and ErrAlreadyRunning when a server is already running on the data directory.
func (c *Cluster) Start(ctx context.Context) error {
	if !c.Initialized() {
		return ErrNotInitialized
	}
	if c.running(ctx) {
		return ErrAlreadyRunning
	}
	if err := c.prepareSocketDir(); err != nil {
		return err
	}
	opts := []string{"-c listen_addresses=''", "-c unix_socket_directories=" + quoteOpt(c.socketDir),
		"-p " + strconv.Itoa(c.cfg.Port)}
	names := make([]string, 0, len(c.cfg.Settings))
	for name := range c.cfg.Settings {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		opts = append(opts, "-c "+name+"="+quoteOpt(c.cfg.Settings[name]))
	}
	c.cfg.Logger.InfoContext(ctx, "starting PostgreSQL", "dir", c.dataDir(), "socket_dir", c.socketDir)
	_, err := c.run(ctx, "pg_ctl", "start", "-w", "-t", "60", "-D", c.dataDir(), "-l", c.LogFile(),
		"-o", strings.Join(opts, " "))
	if err != nil {
		return fmt.Errorf("pgcluster: start (log in %s): %w", c.LogFile(), err)
	}
	return nil
}

// Stop stops the server (fast shutdown: open sessions are ended) and waits for it to exit.
// Stopping a server that is not running is not an error.
func (c *Cluster) Stop(ctx context.Context) error {
	if c.Initialized() && c.running(ctx) {
		if _, err := c.run(ctx, "pg_ctl", "stop", "-w", "-m", "fast", "-D", c.dataDir()); err != nil {
			return fmt.Errorf("pgcluster: stop: %w", err)
		}
	}
	if c.tmpSocket {
		_ = os.RemoveAll(c.socketDir)
		c.tmpSocket = false
	}
	return nil
}

// SocketDir returns the directory of the server's Unix socket; empty before Start.
func (c *Cluster) SocketDir() string { return c.socketDir }

// URL returns a connection string for database dbname as the superuser over the Unix socket.
// It is valid after Start.
func (c *Cluster) URL(dbname string) string {
	q := url.Values{}
	q.Set("host", c.socketDir)
	q.Set("port", strconv.Itoa(c.cfg.Port))
	q.Set("user", SuperUser)
	q.Set("sslmode", "disable")
	return (&url.URL{Scheme: "postgres", Path: "/" + dbname, RawQuery: q.Encode()}).String()
}

func (c *Cluster) running(ctx context.Context) bool {
	_, err := c.run(ctx, "pg_ctl", "status", "-D", c.dataDir())
	return err == nil
}

func (c *Cluster) prepareSocketDir() error {
	dir := filepath.Join(c.dir, "run")
	socket := filepath.Join(dir, ".s.PGSQL."+strconv.Itoa(c.cfg.Port))
	if len(socket) < maxSocketPath {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return fmt.Errorf("pgcluster: create socket dir: %w", err)
		}
		c.socketDir, c.tmpSocket = dir, false
		return c.chown(dir)
	}
	dir, err := os.MkdirTemp("/tmp", "pgsock")
	if err != nil {
		return fmt.Errorf("pgcluster: create socket dir: %w", err)
	}
	c.socketDir, c.tmpSocket = dir, true
	return c.chown(dir)
}

// checkReachable makes sure the postgres user can reach the cluster directory when the server
// runs as that user: every ancestor must be searchable by others.
func (c *Cluster) checkReachable() error {
	if c.runAs == nil {
		return nil
	}
	for dir := filepath.Dir(c.dir); ; dir = filepath.Dir(dir) {
		info, err := os.Stat(dir)
		if err != nil {
			return fmt.Errorf("pgcluster: stat %s: %w", dir, err)
		}
		if info.Mode().Perm()&0o001 == 0 {
			return fmt.Errorf("pgcluster: the postgres user cannot reach %s: %s is not searchable by others (chmod o+x it)", c.dir, dir)
		}
		if dir == filepath.Dir(dir) {
			return nil
		}
	}
}

func (c *Cluster) chown(path string) error {
	if c.runAs == nil {
		return nil
	}
	if err := os.Chown(path, int(c.runAs.Uid), int(c.runAs.Gid)); err != nil {
		return fmt.Errorf("pgcluster: give %s to the postgres user: %w", path, err)
	}
	return nil
}

// run runs one of the PostgreSQL binaries (as the postgres user when root) and returns its
// combined output; a failure's error includes that output.
func (c *Cluster) run(ctx context.Context, name string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, filepath.Join(c.binDir, name), args...)
	cmd.Dir = "/"
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	// Own process group: a Ctrl-C on the terminal reaches us, and we stop the server in order.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Credential: c.runAs}
	cmd.Env = append(os.Environ(), "LC_ALL=C")
	if err := cmd.Run(); err != nil {
		return out.Bytes(), fmt.Errorf("%s %s: %w: %s", name, strings.Join(args, " "), err,
			strings.TrimSpace(out.String()))
	}
	return out.Bytes(), nil
}

// quoteOpt quotes a value for the postgres command line given through pg_ctl -o.
func quoteOpt(v string) string {
	return "'" + strings.ReplaceAll(v, "'", `'\''`) + "'"
}
