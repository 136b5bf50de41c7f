package doctest

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/codemode/codemode/internal/pgtest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// root is the repository root, relative to this package's directory.
const root = "../.."

// block is one marked code block of a document.
type block struct {
	line   int      // line of the opening fence, 1-based
	lang   string   // the fence's info string
	text   string   // the block's content
	file   string   // doctest: file NAME — write the block to NAME instead of running it
	expect []string // doctest: expect TEXT — the run's output contains each
	needs  []string // doctest: needs CMD — the document is skipped without CMD on PATH
}

var commentRE = regexp.MustCompile(`^<!--\s*doctest(?::\s*(.*?))?\s*-->\s*$`)

// parse returns the marked blocks of a markdown document, in order.
func parse(doc string) ([]block, error) {
	var blocks []block
	var pending *block // marks seen, fence not yet
	lines := strings.Split(doc, "\n")
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		if m := commentRE.FindStringSubmatch(line); m != nil {
			if pending == nil {
				pending = &block{}
			}
			if arg := m[1]; arg != "" {
				verb, rest, _ := strings.Cut(arg, " ")
				rest = strings.TrimSpace(rest)
				switch verb {
				case "expect":
					pending.expect = append(pending.expect, rest)
				case "file":
					pending.file = rest
				case "needs":
					pending.needs = append(pending.needs, rest)
				default:
					return nil, fmt.Errorf("line %d: unknown doctest directive %q", i+1, verb)
				}
			}
			continue
		}
		if pending == nil {
			continue
		}
		fence, ok := strings.CutPrefix(line, "```")
		if !ok {
			return nil, fmt.Errorf("line %d: a doctest comment is not followed by a code block", i)
		}
		b := *pending
		pending = nil
		b.line = i + 1
		b.lang = strings.TrimSpace(fence)
		var body []string
		for i++; i < len(lines) && !strings.HasPrefix(lines[i], "```"); i++ {
			body = append(body, lines[i])
		}
		if i == len(lines) {
			return nil, fmt.Errorf("line %d: code block not closed", b.line)
		}
		b.text = strings.Join(body, "\n") + "\n"
		if b.file == "" && b.lang != "sh" && b.lang != "bash" {
			return nil, fmt.Errorf("line %d: a doctest block to run must be sh, not %q", b.line, b.lang)
		}
		if b.file != "" && len(b.expect) > 0 {
			return nil, fmt.Errorf("line %d: a file block has no output to expect", b.line)
		}
		blocks = append(blocks, b)
	}
	if pending != nil {
		return nil, fmt.Errorf("a doctest comment at the end is not followed by a code block")
	}
	return blocks, nil
}

func TestParse(t *testing.T) {
	doc := "text\n<!-- doctest -->\n```sh\necho a\n```\n\n```sh\nnot marked\n```\n" +
		"<!-- doctest: file x.py -->\n```python\nprint(1)\n```\n" +
		"<!-- doctest: expect a b -->\n<!-- doctest: expect \"c\":1 -->\n```sh\necho a b\n\necho '\"c\":1'\n```\n"
	blocks, err := parse(doc)
	if err != nil {
		t.Fatal(err)
	}
	if len(blocks) != 3 {
		t.Fatalf("got %d blocks, want 3: %+v", len(blocks), blocks)
	}
	if b := blocks[0]; b.line != 3 || b.text != "echo a\n" || b.lang != "sh" {
		t.Errorf("block 1: %+v", b)
	}
	if b := blocks[1]; b.file != "x.py" || b.text != "print(1)\n" {
		t.Errorf("block 2: %+v", b)
	}
	if b := blocks[2]; len(b.expect) != 2 || b.expect[0] != "a b" || b.expect[1] != `"c":1` ||
		b.text != "echo a b\n\necho '\"c\":1'\n" {
		t.Errorf("block 3: %+v", b)
	}
	for _, bad := range []string{
		"<!-- doctest -->\ntext\n",
		"<!-- doctest -->\n```js\n1\n```\n",
		"<!-- doctest: frobnicate -->\n```sh\n1\n```\n",
		"<!-- doctest -->\n```sh\nnot closed\n",
	} {
		if _, err := parse(bad); err == nil {
			t.Errorf("parse(%q) succeeded", bad)
		}
	}
}

// documents are the documents whose marked blocks run, with the least number of run blocks
// each must have (so that a lost marker is noticed).
var documents = map[string]int{
	"README.md":             6,
	"docs/api.md":           17,
	"docs/tool-protocol.md": 4,
	"docs/webhooks.md":      1,
	"docs/console.md":       1,
	"docs/mcp.md":           1,
	"docs/language.md":      1,
	"docs/toolsets.md":      1,
}

// TestDocsMarked checks that every document that has marked blocks is listed in documents.
func TestDocsMarked(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range append(files, filepath.Join(root, "README.md")) {
		rel, _ := filepath.Rel(root, f)
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		blocks, err := parse(string(data))
		if err != nil {
			t.Errorf("%s: %v", rel, err)
			continue
		}
		if _, listed := documents[rel]; len(blocks) > 0 && !listed {
			t.Errorf("%s has doctest blocks but is not in the documents the test runs", rel)
		}
	}
}

// Binaries are built once per test binary.
var (
	buildOnce sync.Once
	binDir    string
	buildErr  error
)

func build(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		binDir, buildErr = os.MkdirTemp("", "codemode-doctest-bin")
		if buildErr != nil {
			return
		}
		pgtest.AfterRun(func() { _ = os.RemoveAll(binDir) })
		cmd := exec.Command("go", "build", "-tags", roundTripTags(), "-o", binDir+"/",
			"github.com/codemode/codemode/cmd/codemode",
			"github.com/codemode/codemode/internal/toolset/toolsettest/cmd/toolsetd",
			"github.com/codemode/codemode/examples/webhook-receiver")
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go build: %v: %s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binDir
}

func TestDocs(t *testing.T) {
	for _, tool := range []string{"bash", "curl"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("the documentation examples need %s on PATH", tool)
		}
	}
	bin := build(t)
	t.Cleanup(func() { _ = os.RemoveAll(bin) })
	for doc, least := range documents {
		t.Run(doc, func(t *testing.T) {
			t.Parallel()
			data, err := os.ReadFile(filepath.Join(root, doc))
			if err != nil {
				t.Fatal(err)
			}
			blocks, err := parse(string(data))
			if err != nil {
				t.Fatalf("%s: %v", doc, err)
			}
			run := 0
			for _, b := range blocks {
				if b.file == "" {
					run++
				}
			}
			if run < least {
				t.Fatalf("%s has %d doctest blocks to run, want at least %d: was a marker lost?", doc, run, least)
			}
			for _, b := range blocks {
				for _, n := range b.needs {
					if _, err := exec.LookPath(n); err != nil {
						t.Skipf("%s: line %d needs %s, which is not on PATH", doc, b.line, n)
					}
				}
			}
			runDocument(t, bin, doc, blocks)
		})
	}
}

// fixedURL is the documented service address; marked blocks must reach it through CODEMODE_URL.
const (
	fixedURL   = "127.0.0.1:8080"
	defaultURL = "${CODEMODE_URL:-http://127.0.0.1:8080}"
)

// toolsetPortRE matches the documented toolset ports and the example webhook receiver's
// (8767), replaced by free ones.
var toolsetPortRE = regexp.MustCompile(`\b876[567]\b`)

// shim stands in for the go command in the blocks: it runs the built binaries.
const shim = `go() {
  case "$1 $2" in
  "run ./cmd/codemode") shift 2; codemode "$@" ;;
  "run ./internal/toolset/toolsettest/cmd/toolsetd") shift 2; toolsetd "$@" ;;
  "run ./examples/webhook-receiver") shift 2; webhook-receiver "$@" ;;
  "build -o")
    if [ "$4" != ./cmd/codemode ]; then echo "doctest: no stand-in for: go $*" >&2; return 1; fi
    mkdir -p "$(dirname "$3")" && cp "$(command -v codemode)" "$3" ;;
  *) echo "doctest: no stand-in for: go $*" >&2; return 1 ;;
  esac
}
`

func runDocument(t *testing.T, bin, doc string, blocks []block) {
	dir := t.TempDir()
	state := filepath.Join(dir, ".doctest")
	if err := os.Mkdir(state, 0o755); err != nil {
		t.Fatal(err)
	}
	ports := map[string]string{}
	subst := func(s string) string {
		return toolsetPortRE.ReplaceAllStringFunc(s, func(p string) string {
			if ports[p] == "" {
				ports[p] = freePort(t)
			}
			return ports[p]
		})
	}
	url := startService(t, bin, dir)

	var script strings.Builder
	script.WriteString("set -eo pipefail\n" + shim)
	for i, b := range blocks {
		if strings.Contains(strings.ReplaceAll(b.text, defaultURL, ""), fixedURL) ||
			strings.Contains(b.text, "localhost:8080") {
			t.Fatalf("%s:%d: the block names the service by its fixed address; use %s", doc, b.line, defaultURL)
		}
		text := subst(b.text)
		if b.file != "" {
			if err := os.WriteFile(filepath.Join(dir, b.file), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		name := filepath.Join(state, strconv.Itoa(i))
		if err := os.WriteFile(name+".sh", []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&script, "echo %d > .doctest/current\nsource .doctest/%d.sh > .doctest/%d.out 2>&1\n", i, i, i)
	}
	script.WriteString("echo done > .doctest/current\n")

	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "-c", script.String())
	cmd.Dir = dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	// Everything the blocks started in the background goes with the shell's process group.
	killGroup := func() {
		if cmd.Process != nil {
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		}
	}
	cmd.Cancel = func() error { killGroup(); return nil }
	cmd.Env = append(environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"),
		"CODEMODE_URL="+url)
	logs, err := os.Create(filepath.Join(state, "shell.out"))
	if err != nil {
		t.Fatal(err)
	}
	defer logs.Close()
	cmd.Stdout, cmd.Stderr = logs, logs
	start := time.Now()
	runErr := cmd.Run()
	killGroup()

	current, _ := os.ReadFile(filepath.Join(state, "current"))
	last := strings.TrimSpace(string(current))
	for i, b := range blocks {
		if b.file != "" {
			continue
		}
		out, _ := os.ReadFile(filepath.Join(state, strconv.Itoa(i)+".out"))
		where := fmt.Sprintf("%s, the block at line %d", doc, b.line)
		if last == strconv.Itoa(i) {
			shell, _ := os.ReadFile(filepath.Join(state, "shell.out"))
			t.Fatalf("%s failed (%v after %s):\n--- block ---\n%s--- output ---\n%s%s", where, runErr,
				time.Since(start).Round(time.Millisecond), b.text, out, shell)
		}
		for _, want := range b.expect {
			if !strings.Contains(string(out), subst(want)) {
				t.Errorf("%s: the output lacks the documented %s\n--- block ---\n%s--- output ---\n%s",
					where, want, b.text, out)
			}
		}
	}
	if last != "done" || runErr != nil {
		shell, _ := os.ReadFile(filepath.Join(state, "shell.out"))
		t.Fatalf("%s: the shell ended at %q: %v\n%s", doc, last, runErr, shell)
	}
	t.Logf("%s: ran in %s", doc, time.Since(start).Round(time.Millisecond))
}

// environ is the test's environment without the settings that would point the examples
// elsewhere.
func environ() []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(name, "CODEMODE_") || name == "DATABASE_URL" || name == "PATH" {
			continue
		}
		env = append(env, kv)
	}
	return env
}

// startService starts `codemode dev` on a fresh database and a free port, and returns its URL.
// It is stopped when the test ends.
func startService(t *testing.T, bin, dir string) string {
	t.Helper()
	_, dbURL := pgtest.NewDB(t)
	cmd := exec.Command(filepath.Join(bin, "codemode"), "dev", "--listen", "127.0.0.1:0", "--log-level", "warn",
		"--data", filepath.Join(dir, ".doctest", "data"))
	cmd.Env = append(environ(), "PATH="+os.Getenv("PATH"), "DATABASE_URL="+dbURL)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	logs, err := os.Create(filepath.Join(dir, ".doctest", "service.log"))
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	url := make(chan string, 1)
	go func() {
		defer close(done)
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if rest, ok := strings.CutPrefix(sc.Text(), "codemode is serving "); ok {
				url <- strings.Fields(rest)[0]
			}
		}
		_, _ = io.Copy(io.Discard, stdout)
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
		_ = cmd.Wait()
		_ = logs.Close()
		if t.Failed() {
			if data, err := os.ReadFile(logs.Name()); err == nil && len(data) > 0 {
				t.Logf("codemode dev's log:\n%s", data)
			}
		}
	})
	select {
	case u := <-url:
		return u
	case <-done:
		t.Fatal("codemode dev stopped before serving")
	case <-time.After(2 * time.Minute):
		t.Fatal("codemode dev did not serve within 2 minutes")
	}
	return ""
}

func freePort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
}

// roundTripTags are the build tags of the binaries: codemode_roundtrip when
// CODEMODE_ROUNDTRIP=1, so that their runs are saved and restored at every safe point too.
func roundTripTags() string {
	if os.Getenv("CODEMODE_ROUNDTRIP") == "1" {
		return "codemode_roundtrip"
	}
	return ""
}
