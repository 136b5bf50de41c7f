package bench

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
)

// libraryPrograms loads every library program, skipping the test when the libraries are not
// installed.
func libraryPrograms(t testing.TB) []Program {
	t.Helper()
	set, err := LoadLibraries(LibsDir)
	require.NoError(t, err)
	if !set.Fetched() {
		t.Skip("library files are not installed: run bench/libs/fetch.sh (npm ci) first")
	}
	var progs []Program
	for _, lib := range set.Libraries {
		p, err := set.Program(lib)
		require.NoError(t, err)
		progs = append(progs, p)
	}
	return progs
}

func TestLoadLibraries(t *testing.T) {
	t.Parallel()
	set, err := LoadLibraries(LibsDir)
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(set.Libraries), 8)
	for _, lib := range set.Libraries {
		require.NotEmpty(t, lib.Package, lib.Name)
		require.NotEmpty(t, lib.File, lib.Name)
		require.Positive(t, lib.Iterations, lib.Name)
		require.FileExists(t, "libs/workloads/"+lib.Name+".js")
		require.FileExists(t, set.ExpectedPath(lib.Name))
		for _, in := range lib.Inputs {
			require.FileExists(t, "libs/inputs/"+in)
		}
	}
}

// checkLibraries checks that the engine gives node's output for every library. A library
// marked as needing a feature codemode lacks (ours) or listed in known (another engine) is
// skipped while it fails.
func checkLibraries(t *testing.T, e LibEngine, known map[string]string) {
	for _, p := range libraryPrograms(t) {
		t.Run(p.Name, func(t *testing.T) {
			err := CheckLib(context.Background(), e, p)
			if err != nil && p.Needs != "" && e.Name() == "ours" {
				t.Skipf("needs %s: %v", p.Needs, err)
			}
			if why, ok := known[p.Name]; ok && err != nil {
				t.Skipf("%s: %v", why, err)
			}
			require.NoError(t, err)
			if p.Needs != "" {
				t.Logf("%s runs: its needs marker (%s) can go", p.Name, p.Needs)
			}
		})
	}
}

// TestOursLibraries checks that codemode's interpreter gives node's output for every library.
func TestOursLibraries(t *testing.T) {
	checkLibraries(t, Ours{}, nil)
}

// gojaKnownFailures are the libraries goja cannot run, and why.
var gojaKnownFailures = map[string]string{
	"showdown": "a known goja failure (TypeError: Cannot read property 'codeblock' of undefined)",
}

// TestGojaLibraries checks goja against node on every library.
func TestGojaLibraries(t *testing.T) {
	checkLibraries(t, Goja{}, gojaKnownFailures)
}

// BenchmarkLibraries runs every library program (compile, library load, then main
// 1+iterations times) on codemode and goja, for profiling one of them:
//
//	go test -bench 'Libraries/ours/marked$' -run '^$' -cpuprofile cpu.out .
func BenchmarkLibraries(b *testing.B) {
	progs := libraryPrograms(b)
	for _, e := range []LibEngine{Ours{}, Goja{}} {
		for _, p := range progs {
			b.Run(e.Name()+"/"+p.Name, func(b *testing.B) {
				if err := CheckLib(context.Background(), e, p); err != nil {
					b.Skip(err)
				}
				for b.Loop() {
					if _, err := e.RunLib(context.Background(), p.Text, p.Iterations); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkLibraryCalls calls one library's main b.N times in a single VM, so that a
// profile shows the workload rather than compiling and loading the library:
//
//	go test -bench 'LibraryCalls/ours/marked$' -run '^$' -benchtime 20x -cpuprofile cpu.out .
func BenchmarkLibraryCalls(b *testing.B) {
	progs := libraryPrograms(b)
	for _, e := range []LibEngine{Ours{}, Goja{}} {
		for _, p := range progs {
			b.Run(e.Name()+"/"+p.Name, func(b *testing.B) {
				if err := CheckLib(context.Background(), e, p); err != nil {
					b.Skip(err)
				}
				if _, err := e.RunLib(context.Background(), p.Text, b.N); err != nil {
					b.Fatal(err)
				}
			})
		}
	}
}
