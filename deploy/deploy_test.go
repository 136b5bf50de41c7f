// Package deploy_test checks the deployment files against the binaries they describe, without
// a container engine: the image's build stage (deploy/Dockerfile) runs on the host in a copy of
// the build context that .dockerignore selects, and the compose services and Kubernetes
// containers are started as processes, with their commands and environments, against a real
// PostgreSQL. Only what a container engine would change is changed: the database address,
// secrets, and the listen ports (every container has its own network namespace; here the
// processes share one, so each gets a free loopback port).
package deploy_test

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"debug/elf"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/moby/patternmatcher"
	"github.com/moby/patternmatcher/ignorefile"
	"github.com/stretchr/testify/require"
	"gopkg.in/yaml.v3"

	"github.com/codemode/codemode/internal/pgtest"
	"github.com/codemode/codemode/internal/toolset/toolsettest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// repoRoot is the module's root: this package lives in deploy/.
const repoRoot = ".."

// instruction is one Dockerfile instruction: its keyword (upper case) and the rest of its text.
type instruction struct {
	keyword string
	args    string
}

// stage is one FROM section of a Dockerfile.
type stage struct {
	name         string
	instructions []instruction
}

// parseDockerfile reads the instructions of each stage: comments and blank lines dropped,
// lines ending in a backslash joined with the next.
func parseDockerfile(t *testing.T, path string) []stage {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	var stages []stage
	var pending string
	for _, line := range strings.Split(string(b), "\n") {
		trimmed := strings.TrimSpace(line)
		if pending == "" && (trimmed == "" || strings.HasPrefix(trimmed, "#")) {
			continue
		}
		if strings.HasSuffix(trimmed, "\\") {
			pending += strings.TrimSuffix(trimmed, "\\") + " "
			continue
		}
		text := pending + trimmed
		pending = ""
		keyword, args, _ := strings.Cut(text, " ")
		keyword = strings.ToUpper(keyword)
		args = strings.TrimSpace(args)
		if keyword == "FROM" {
			name := ""
			if f := strings.Fields(args); len(f) == 3 && strings.EqualFold(f[1], "AS") {
				name = f[2]
			}
			stages = append(stages, stage{name: name})
			continue
		}
		require.NotEmpty(t, stages, "%s: %s before FROM", path, keyword)
		stages[len(stages)-1].instructions = append(stages[len(stages)-1].instructions, instruction{keyword, args})
	}
	require.Empty(t, pending, "%s ends in a continuation line", path)
	return stages
}

// buildContext copies the files of a clean clone that .dockerignore lets into the build context.
func buildContext(t *testing.T, dir string) {
	t.Helper()
	f, err := os.Open(filepath.Join(repoRoot, ".dockerignore"))
	require.NoError(t, err)
	defer f.Close()
	patterns, err := ignorefile.ReadAll(f)
	require.NoError(t, err)
	pm, err := patternmatcher.New(patterns)
	require.NoError(t, err)

	// Paths the context must leave out whatever else changes: the repository itself, the
	// database files of `codemode dev` and the tests' data.
	for _, p := range []string{".git/HEAD", ".codemode/pg/PG_VERSION", "cmd/server/.codemode/x",
		"internal/run/testdata/golden/format1.json", "bench/README.md"} {
		skip, err := pm.MatchesOrParentMatches(p)
		require.NoError(t, err)
		require.True(t, skip, ".dockerignore lets %s into the image's build context", p)
	}

	out, err := exec.Command("git", "-C", repoRoot, "ls-files", "-z").Output()
	require.NoError(t, err, "git ls-files")
	for _, p := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		skip, err := pm.MatchesOrParentMatches(p)
		require.NoError(t, err)
		if skip {
			continue
		}
		src := filepath.Join(repoRoot, p)
		info, err := os.Lstat(src)
		if os.IsNotExist(err) {
			continue // deleted in the working tree
		}
		require.NoError(t, err)
		if !info.Mode().IsRegular() {
			continue
		}
		dst := filepath.Join(dir, p)
		require.NoError(t, os.MkdirAll(filepath.Dir(dst), 0o755))
		b, err := os.ReadFile(src)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(dst, b, info.Mode().Perm()))
	}
}

var (
	imageOnce sync.Once
	imageBin  string // directory holding the final stage's binaries, by base name
	imageErr  error
)

// image runs the build stage of deploy/Dockerfile on the host and returns the directory of the
// binaries the final stage copies. The build stage's absolute output directory (/out) is moved
// under the test's temporary directory; everything else runs as written.
func image(t *testing.T) string {
	t.Helper()
	imageOnce.Do(func() {
		imageBin, imageErr = buildImage(t)
	})
	require.NoError(t, imageErr)
	return imageBin
}

func buildImage(t *testing.T) (string, error) {
	stages := parseDockerfile(t, filepath.Join(repoRoot, "deploy", "Dockerfile"))
	if len(stages) < 2 {
		return "", fmt.Errorf("deploy/Dockerfile: want a build stage and a final stage, have %d stages", len(stages))
	}
	root, err := os.MkdirTemp("", "codemode-image")
	if err != nil {
		return "", err
	}
	pgtest.AfterRun(func() { _ = os.RemoveAll(root) })
	context := filepath.Join(root, "context")
	out := filepath.Join(root, "out")
	bin := filepath.Join(root, "usr-local-bin")
	for _, d := range []string{context, out, bin} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return "", err
		}
	}
	buildContext(t, context)

	build := stages[0]
	for _, in := range build.instructions {
		switch in.keyword {
		case "WORKDIR", "COPY", "ENV", "ARG":
			// The context copy is the working directory; COPY of the context is that copy.
			if in.keyword == "COPY" && strings.HasPrefix(in.args, "--from") {
				return "", fmt.Errorf("build stage copies from another stage: %s", in.args)
			}
		case "RUN":
			script := strings.ReplaceAll(in.args, "/out/", out+"/")
			cmd := exec.Command("sh", "-c", script)
			cmd.Dir = context
			if b, err := cmd.CombinedOutput(); err != nil {
				return "", fmt.Errorf("RUN %s: %v\n%s", in.args, err, b)
			}
		default:
			return "", fmt.Errorf("build stage: instruction %s not understood by this test", in.keyword)
		}
	}

	// The final stage: every COPY --from=<build> source must exist and lands in its target.
	final := stages[len(stages)-1]
	copied := 0
	for _, in := range final.instructions {
		if in.keyword != "COPY" {
			continue
		}
		f := strings.Fields(in.args)
		if len(f) < 3 || f[0] != "--from="+build.name {
			return "", fmt.Errorf("final stage: unexpected COPY %s", in.args)
		}
		if f[len(f)-1] != "/usr/local/bin/" {
			return "", fmt.Errorf("final stage: COPY target %s, want /usr/local/bin/", f[len(f)-1])
		}
		for _, src := range f[1 : len(f)-1] {
			b, err := os.ReadFile(strings.Replace(src, "/out/", out+"/", 1))
			if err != nil {
				return "", fmt.Errorf("final stage copies %s: %v", src, err)
			}
			if err := os.WriteFile(filepath.Join(bin, filepath.Base(src)), b, 0o755); err != nil {
				return "", err
			}
			copied++
		}
	}
	if copied == 0 {
		return "", fmt.Errorf("final stage copies no binaries")
	}
	return bin, nil
}

// TestImageBinariesAreStaticAndStart: the final image is distroless/static, with no C library,
// so its binaries must be statically linked; each answers --help.
func TestImageBinariesAreStaticAndStart(t *testing.T) {
	bin := image(t)
	for _, name := range []string{"server", "worker"} {
		path := filepath.Join(bin, name)
		f, err := elf.Open(path)
		require.NoError(t, err, "%s is not an ELF binary", name)
		for _, p := range f.Progs {
			require.NotEqual(t, elf.PT_INTERP, p.Type, "%s is dynamically linked: the static base image cannot run it", name)
		}
		f.Close()
		out, err := exec.Command(path, "--help").CombinedOutput()
		require.NoError(t, err, "%s --help: %s", name, out)
	}
	entries, err := os.ReadDir(bin)
	require.NoError(t, err)
	require.Len(t, entries, 2, "the image holds server and worker")
}

// --- processes ---

type process struct {
	name string
	cmd  *exec.Cmd
	mu   sync.Mutex
	out  bytes.Buffer
	done chan struct{}
	err  error
}

// startProcess starts a container's command from the image with exactly the given environment
// (plus PATH and HOME, which a container also has).
func startProcess(t *testing.T, name string, command []string, env map[string]string) *process {
	t.Helper()
	require.NotEmpty(t, command, "%s has no command", name)
	require.True(t, strings.HasPrefix(command[0], "/usr/local/bin/"), "%s runs %s, which the image does not hold", name, command[0])
	path := filepath.Join(image(t), strings.TrimPrefix(command[0], "/usr/local/bin/"))
	p := &process{name: name, cmd: exec.Command(path, command[1:]...), done: make(chan struct{})}
	p.cmd.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + t.TempDir()}
	for k, v := range env {
		p.cmd.Env = append(p.cmd.Env, k+"="+v)
	}
	pr, pw := io.Pipe()
	p.cmd.Stdout, p.cmd.Stderr = pw, pw
	require.NoError(t, p.cmd.Start())
	go func() {
		s := bufio.NewScanner(pr)
		for s.Scan() {
			p.mu.Lock()
			p.out.WriteString(s.Text() + "\n")
			p.mu.Unlock()
		}
	}()
	go func() {
		p.err = p.cmd.Wait()
		_ = pw.Close()
		close(p.done)
	}()
	t.Cleanup(func() {
		_ = p.cmd.Process.Kill()
		<-p.done
		if t.Failed() {
			p.mu.Lock()
			t.Logf("--- %s output:\n%s", name, p.out.String())
			p.mu.Unlock()
		}
	})
	return p
}

// stop sends SIGTERM and waits for a clean exit within grace.
func (p *process) stop(t *testing.T, grace time.Duration) {
	t.Helper()
	require.NoError(t, p.cmd.Process.Signal(syscall.SIGTERM))
	select {
	case <-p.done:
		require.NoError(t, p.err, "%s did not exit cleanly on SIGTERM", p.name)
	case <-time.After(grace):
		t.Fatalf("%s did not stop within its grace period %s", p.name, grace)
	}
}

func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer l.Close()
	return l.Addr().String()
}

// freshDatabase returns the connection string of a new, empty database (no migrations), so the
// migration step of a deployment has work to do.
func freshDatabase(t *testing.T) string {
	t.Helper()
	pool, u := pgtest.NewDB(t)
	name := fmt.Sprintf("deploy_%d", time.Now().UnixNano())
	_, err := pool.Exec(context.Background(), "CREATE DATABASE "+name)
	require.NoError(t, err)
	t.Cleanup(func() {
		_, _ = pool.Exec(context.Background(), "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
	})
	return pgtest.WithDatabase(u, name)
}

func secretKey(t *testing.T) string {
	t.Helper()
	b := make([]byte, 32)
	_, err := rand.Read(b)
	require.NoError(t, err)
	return base64.StdEncoding.EncodeToString(b)
}

// waitHTTP polls url until it answers 200.
func waitHTTP(t *testing.T, url string, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		resp, err := http.Get(url)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s did not answer 200 within %s (last: %v)", url, within, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// runThroughAPI registers a signed toolset and runs a program that calls it, as a user of the
// deployment would.
func runThroughAPI(t *testing.T, base, token string, tools *toolsettest.Server, secret string) {
	t.Helper()
	do := func(method, path string, body any, want int) map[string]any {
		t.Helper()
		b, err := json.Marshal(body)
		require.NoError(t, err)
		req, err := http.NewRequest(method, base+path, bytes.NewReader(b))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		raw, _ := io.ReadAll(resp.Body)
		require.Equal(t, want, resp.StatusCode, "%s %s: %s", method, path, raw)
		var out map[string]any
		require.NoError(t, json.Unmarshal(raw, &out))
		return out
	}

	unauth, err := http.Get(base + "/v1/runs")
	require.NoError(t, err)
	unauth.Body.Close()
	require.Equal(t, http.StatusUnauthorized, unauth.StatusCode, "the API must need its token")

	do("POST", "/v1/toolsets", map[string]any{"name": "math", "url": tools.URL, "secret": secret}, http.StatusCreated)
	run := do("POST", "/v1/runs?wait=20", map[string]any{
		"code":     "const r = await tools.math.math.add({a: input.a, b: 21}); return r.sum",
		"input":    map[string]any{"a": 21},
		"toolsets": []string{"math"},
	}, http.StatusCreated)
	require.Equal(t, "succeeded", run["status"], "run: %v", run)
	require.Equal(t, 42.0, run["result"].(map[string]any)["value"], "run: %v", run)
}

// --- compose ---

type composeService struct {
	Image       string            `yaml:"image"`
	Build       any               `yaml:"build"`
	Command     []string          `yaml:"command"`
	Environment map[string]string `yaml:"environment"`
	Ports       []string          `yaml:"ports"`
	DependsOn   map[string]struct {
		Condition string `yaml:"condition"`
	} `yaml:"depends_on"`
	Deploy struct {
		Replicas int `yaml:"replicas"`
	} `yaml:"deploy"`
	StopGracePeriod string `yaml:"stop_grace_period"`
}

var interpolation = regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_]*)(?::?[?-]([^}]*))?\}`)

// interpolate substitutes ${NAME}, ${NAME:-default} and ${NAME:?message} as compose does, from
// vars; a required variable missing from vars fails the test with compose's message.
func interpolate(t *testing.T, s string, vars map[string]string) string {
	t.Helper()
	return interpolation.ReplaceAllStringFunc(s, func(m string) string {
		sub := interpolation.FindStringSubmatch(m)
		if v, ok := vars[sub[1]]; ok {
			return v
		}
		if strings.Contains(m, "?") {
			t.Fatalf("compose needs %s: %s", sub[1], sub[2])
		}
		return sub[2]
	})
}

// TestComposeStackServesARun starts docker-compose.yml's services in dependency order (the
// migration to completion, then the server and the workers' replicas), runs a program calling a
// signed toolset through the API with the stack's token, and stops everything with SIGTERM
// within the services' grace periods.
func TestComposeStackServesARun(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(repoRoot, "docker-compose.yml"))
	require.NoError(t, err)
	var compose struct {
		Services map[string]composeService `yaml:"services"`
	}
	require.NoError(t, yaml.Unmarshal(b, &compose))

	db := freshDatabase(t)
	token, key := "deploy-test-token", secretKey(t)
	vars := map[string]string{"CODEMODE_API_TOKEN": token, "CODEMODE_SECRET_KEY": key}
	toolSecret := "whsec_" + base64.StdEncoding.EncodeToString([]byte("a toolset secret of 32 bytes!!!!"))
	tools := toolsettest.New(t, toolsettest.Options{Secret: toolSecret})

	pg, ok := compose.Services["postgres"]
	require.True(t, ok, "the stack has its database")
	pgURLHost := "@postgres:5432/"
	require.NotEmpty(t, pg.Image)

	var base string
	env := func(name string, s composeService) map[string]string {
		out := map[string]string{}
		for k, v := range s.Environment {
			v = interpolate(t, v, vars)
			switch k {
			case "DATABASE_URL":
				require.Contains(t, v, pgURLHost, "%s: DATABASE_URL should reach the postgres service", name)
				v = db
			case "CODEMODE_LISTEN":
				// The published port must be the one the server listens on.
				_, port, err := net.SplitHostPort(v)
				require.NoError(t, err)
				require.NotEmpty(t, s.Ports, "%s listens on %s but publishes no port", name, v)
				for _, p := range s.Ports {
					require.True(t, strings.HasSuffix(p, ":"+port), "%s publishes %s but listens on %s", name, p, v)
				}
				v = freeAddr(t)
				base = "http://" + v
			}
			out[k] = v
		}
		// The toolset test server is on loopback, which the default egress policy denies.
		out["CODEMODE_EGRESS_ALLOW"] = "loopback"
		if _, ok := out["CODEMODE_WORKER_LISTEN"]; !ok && name == "worker" {
			out["CODEMODE_WORKER_LISTEN"] = freeAddr(t) // one network namespace per container
		}
		return out
	}

	migrate := compose.Services["migrate"]
	require.Equal(t, "service_healthy", migrate.DependsOn["postgres"].Condition)
	m := startProcess(t, "migrate", migrate.Command, env("migrate", migrate))
	select {
	case <-m.done:
		require.NoError(t, m.err, "the migration service failed")
	case <-time.After(60 * time.Second):
		t.Fatal("the migration service did not finish")
	}

	var running []*process
	var graces []time.Duration
	for _, name := range []string{"server", "worker"} {
		s, ok := compose.Services[name]
		require.True(t, ok, "the stack has a %s service", name)
		require.Equal(t, "service_completed_successfully", s.DependsOn["migrate"].Condition, "%s waits for the migration", name)
		require.Equal(t, migrate.Image, s.Image, "%s runs the image the migration service builds", name)
		grace, err := time.ParseDuration(s.StopGracePeriod)
		require.NoError(t, err, "%s stop_grace_period", name)
		replicas := max(s.Deploy.Replicas, 1)
		for i := range replicas {
			running = append(running, startProcess(t, fmt.Sprintf("%s-%d", name, i+1), s.Command, env(name, s)))
			graces = append(graces, grace)
		}
	}
	require.NotEmpty(t, base, "the server publishes the API")
	waitHTTP(t, base+"/readyz", 30*time.Second)

	runThroughAPI(t, base, token, tools, toolSecret)

	for i, p := range running {
		p.stop(t, graces[i])
	}
}

// --- Kubernetes ---

type k8sContainer struct {
	Name    string   `yaml:"name"`
	Command []string `yaml:"command"`
	Env     []struct {
		Name      string `yaml:"name"`
		Value     string `yaml:"value"`
		ValueFrom struct {
			SecretKeyRef *struct {
				Name string `yaml:"name"`
				Key  string `yaml:"key"`
			} `yaml:"secretKeyRef"`
			FieldRef *struct {
				FieldPath string `yaml:"fieldPath"`
			} `yaml:"fieldRef"`
		} `yaml:"valueFrom"`
	} `yaml:"env"`
	Ports []struct {
		Name          string `yaml:"name"`
		ContainerPort int    `yaml:"containerPort"`
	} `yaml:"ports"`
	ReadinessProbe *k8sProbe `yaml:"readinessProbe"`
	LivenessProbe  *k8sProbe `yaml:"livenessProbe"`
}

type k8sProbe struct {
	HTTPGet struct {
		Path string `yaml:"path"`
		Port string `yaml:"port"`
	} `yaml:"httpGet"`
}

type k8sObject struct {
	Kind     string `yaml:"kind"`
	Metadata struct {
		Name string `yaml:"name"`
	} `yaml:"metadata"`
	Spec struct {
		Template struct {
			Spec struct {
				TerminationGracePeriodSeconds int            `yaml:"terminationGracePeriodSeconds"`
				Containers                    []k8sContainer `yaml:"containers"`
			} `yaml:"spec"`
		} `yaml:"template"`
	} `yaml:"spec"`
}

// TestKubernetesManifestsRunAndAnswerTheirProbes starts the manifests' containers as processes:
// the migration Job to completion, then one pod of each Deployment, with the environment the
// manifest gives (secrets from the documented secret's keys), and checks that every readiness
// and liveness probe answers 200 on the port it names, that the API serves a run, and that each
// process stops within its termination grace period.
func TestKubernetesManifestsRunAndAnswerTheirProbes(t *testing.T) {
	f, err := os.Open(filepath.Join(repoRoot, "deploy", "kubernetes", "codemode.yaml"))
	require.NoError(t, err)
	defer f.Close()
	var objects []k8sObject
	dec := yaml.NewDecoder(f)
	for {
		var o k8sObject
		if err := dec.Decode(&o); err == io.EOF {
			break
		} else {
			require.NoError(t, err)
		}
		objects = append(objects, o)
	}

	db := freshDatabase(t)
	token := "deploy-test-token"
	secret := map[string]string{"database-url": db, "api-token": token, "secret-key": secretKey(t)}
	toolSecret := "whsec_" + base64.StdEncoding.EncodeToString([]byte("a toolset secret of 32 bytes!!!!"))
	tools := toolsettest.New(t, toolsettest.Options{Secret: toolSecret})

	// env builds a container's environment; listen addresses move to free loopback ports and
	// ports maps the container's named ports to them.
	env := func(c k8sContainer) (map[string]string, map[string]string) {
		out := map[string]string{"CODEMODE_EGRESS_ALLOW": "loopback"}
		ports := map[string]string{}
		for _, e := range c.Env {
			v := e.Value
			switch {
			case e.ValueFrom.SecretKeyRef != nil:
				require.Equal(t, "codemode", e.ValueFrom.SecretKeyRef.Name, "%s: %s", c.Name, e.Name)
				sv, ok := secret[e.ValueFrom.SecretKeyRef.Key]
				require.True(t, ok, "%s: %s reads key %q, which the documented secret does not have", c.Name, e.Name, e.ValueFrom.SecretKeyRef.Key)
				v = sv
			case e.ValueFrom.FieldRef != nil:
				v = c.Name + "-pod"
			}
			if e.Name == "CODEMODE_LISTEN" || e.Name == "CODEMODE_WORKER_LISTEN" {
				_, port, err := net.SplitHostPort(v)
				require.NoError(t, err)
				addr := freeAddr(t)
				for _, p := range c.Ports {
					if fmt.Sprint(p.ContainerPort) == port {
						ports[p.Name] = addr
					}
				}
				require.NotEmpty(t, ports, "%s listens on %s, which is none of its declared ports", c.Name, v)
				v = addr
			}
			out[e.Name] = v
		}
		return out, ports
	}

	var job *k8sContainer
	var pods []k8sObject
	for i, o := range objects {
		switch o.Kind {
		case "Job":
			require.Len(t, o.Spec.Template.Spec.Containers, 1)
			job = &objects[i].Spec.Template.Spec.Containers[0]
		case "Deployment":
			pods = append(pods, o)
		}
	}
	require.NotNil(t, job, "the manifests migrate the database")
	require.Len(t, pods, 2, "a server and a worker Deployment")

	jobEnv, _ := env(*job)
	m := startProcess(t, "migrate", job.Command, jobEnv)
	select {
	case <-m.done:
		require.NoError(t, m.err, "the migration Job failed")
	case <-time.After(60 * time.Second):
		t.Fatal("the migration Job did not finish")
	}

	var api string
	type pod struct {
		p     *process
		grace time.Duration
	}
	var started []pod
	for _, o := range pods {
		for _, c := range o.Spec.Template.Spec.Containers {
			e, ports := env(c)
			p := startProcess(t, o.Metadata.Name, c.Command, e)
			started = append(started, pod{p, time.Duration(o.Spec.Template.Spec.TerminationGracePeriodSeconds) * time.Second})
			for _, probe := range []*k8sProbe{c.ReadinessProbe, c.LivenessProbe} {
				require.NotNil(t, probe, "%s has readiness and liveness probes", c.Name)
				addr, ok := ports[probe.HTTPGet.Port]
				require.True(t, ok, "%s: a probe names port %q, which the container does not listen on", c.Name, probe.HTTPGet.Port)
				waitHTTP(t, "http://"+addr+probe.HTTPGet.Path, 30*time.Second)
			}
			if c.Name == "server" {
				api = "http://" + ports["http"]
			}
		}
	}
	require.NotEmpty(t, api, "the server Deployment serves the API")
	runThroughAPI(t, api, token, tools, toolSecret)

	for _, s := range started {
		require.Positive(t, s.grace)
		s.p.stop(t, s.grace)
	}
}
