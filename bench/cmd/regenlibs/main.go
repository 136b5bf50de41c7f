// Command regenlibs writes libs/expected/NAME.json, node's output for every library program
// (or the names given), from the very same program text the engines run:
//
//	cd bench && go run ./cmd/regenlibs [NAME...]
//
// libs/regen.sh runs it; libs/fetch.sh must have installed the libraries.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/codemode/codemode/bench"
)

func main() {
	os.Exit(run(context.Background(), bench.LibsDir, os.Args[1:], os.Stdout, os.Stderr))
}

func run(ctx context.Context, dir string, names []string, stdout, stderr io.Writer) int {
	set, err := bench.LoadLibraries(dir)
	if err != nil {
		fmt.Fprintln(stderr, "regenlibs:", err)
		return 1
	}
	failed := 0
	for _, lib := range set.Libraries {
		if len(names) > 0 && !slices.Contains(names, lib.Name) {
			continue
		}
		if err := regen(ctx, set, lib); err != nil {
			fmt.Fprintln(stderr, "regenlibs:", err)
			failed++
			continue
		}
		fmt.Fprintln(stdout, "wrote", set.ExpectedPath(lib.Name))
	}
	if failed > 0 {
		return 1
	}
	return 0
}

// regen runs one library on node (with its JIT: the output does not depend on it) and writes
// the output.
func regen(ctx context.Context, set *bench.LibrarySet, lib bench.Library) error {
	p, err := set.Program(lib)
	if err != nil {
		return err
	}
	r, err := bench.Node{}.RunLib(ctx, p.Text, 0)
	if err != nil {
		return fmt.Errorf("%s: %w", lib.Name, err)
	}
	if err := os.WriteFile(set.ExpectedPath(lib.Name), []byte(r.Output+"\n"), 0o644); err != nil {
		return fmt.Errorf("%s: %w", lib.Name, err)
	}
	return nil
}
