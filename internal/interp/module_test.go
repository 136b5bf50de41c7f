package interp

import (
	"context"
	"os"
	"testing"

	"github.com/stretchr/testify/require"
)

// runModules runs src with a global fs listed in Config.Modules, snapshotting and restoring
// every few steps under CODEMODE_ROUNDTRIP=1; it returns the completion (or the thrown
// error's "name: message") and the thrown error's line and column.
func runModules(t *testing.T, src string) (got string, line, col int) {
	t.Helper()
	cfg := Config{Modules: []string{"fs", "lib"}}
	p, err := Compile(src)
	if err != nil {
		d := err.(*Diagnostic)
		return d.Kind + ": " + d.Message, d.Line, d.Column
	}
	vm := New(cfg)
	fs, err := vm.FromJSON([]byte(`{"readFile": "rf", "promises": {"readFile": "prf"}}`))
	require.NoError(t, err)
	require.NoError(t, vm.Set(vm.Global(), "fs", fs))
	require.NoError(t, vm.Start(p))
	every := int64(0)
	if os.Getenv("CODEMODE_ROUNDTRIP") == "1" {
		every = 5
	}
	for {
		st, err := vm.Run(context.Background(), RunOptions{MaxSteps: every})
		require.NoError(t, err)
		if st == StatusDone {
			break
		}
		require.Equal(t, StatusPaused, st)
		data, err := vm.Snapshot()
		require.NoError(t, err)
		vm, err = Restore(data, cfg)
		require.NoError(t, err)
	}
	v, thrown := vm.Result()
	if thrown {
		name, msg, line, col := vm.DescribeError(v)
		return name + ": " + msg, line, col
	}
	return vm.ToGoString(v), 0, 0
}

func TestModules(t *testing.T) {
	t.Parallel()
	const notFound = `. A program has no module system: a module is one of the runtime's globals, by its name with or without "node:". Available modules: fs, fs/promises, url, util`
	tests := []struct {
		name, src, want string
		line, col       int // where the error is reported; 0, 0 for none
	}{
		{"default and named", `import fs, { readFile } from "node:fs"
return fs.readFile + readFile`, "rfrf", 0, 0},
		{"without node:", `import { readFile as r } from 'fs';
return r`, "rf", 0, 0},
		{"namespace", `import * as f from "fs"; return f.promises.readFile`, "prf", 0, 0},
		{"fs/promises", `import { readFile } from "node:fs/promises"; return readFile`, "prf", 0, 0},
		{"url", `import { URL, URLSearchParams } from "url"; return new URL("https://a.b/c?x=1").searchParams.get("x") + new URLSearchParams("y=2").get("y")`, "12", 0, 0},
		{"util", `import * as u from "node:util"; return new u.TextDecoder().decode(new u.TextEncoder().encode("hé"))`, "hé", 0, 0},
		{"require", `const fs = require("fs"); const { readFile } = require("node:fs/promises"); return fs.readFile + readFile`, "rfprf", 0, 0},
		{"dynamic import", `const fs = await import("fs"); return fs.readFile`, "rf", 0, 0},
		{"hoisted before the first statement", `const x = readFile
import { readFile } from "fs"
return x`, "rf", 0, 0},
		{"used in a function", `function f() { return fs.readFile }
import fs from "fs"
return f()`, "rf", 0, 0},
		{"positions after an import stay exact", `import fs from "fs"; null.x`, "TypeError: Cannot read properties of null (reading 'x')", 1, 27},
		{"positions on later lines stay exact", "import {\n  readFile\n} from \"fs\"\n  null.x", "TypeError: Cannot read properties of null (reading 'x')", 4, 8},
		// The ReferenceError is located at the name, not at the import.
		{"the position is the name's, not the import's", "import fs from \"fs\"\nundefinedName", "ReferenceError: undefinedName is not defined", 2, 1},
		{"bindings are constants", `import fs from "fs"; fs = 1`, "TypeError: Assignment to constant variable.", 1, 25},
		{"unknown module", `import x from "left-pad"`, "Error: Cannot find module 'left-pad'" + notFound, 1, 1},
		{"not a module global", `require("Math")`, "Error: Cannot find module 'Math'" + notFound, 1, 1},
		{"buffer without Buffer", `import { Buffer } from "node:buffer"`, "Error: Cannot find module 'node:buffer': this runtime has no Buffer global" + notFound, 1, 1},
		{"listed but absent", `require("lib")`, "Error: Cannot find module 'lib'" + notFound, 1, 1},
		{"missing export", `import { writeFile } from "fs"`, "SyntaxError: The requested module 'fs' does not provide an export named 'writeFile'", 1, 1},
		{"dynamic import rejects", `try { await import("nope") } catch (e) { return e.code }`, "MODULE_NOT_FOUND", 0, 0},
		{"error code", `try { require("nope") } catch (e) { return e.code }`, "MODULE_NOT_FOUND", 0, 0},
		{"redeclared binding", `import fs from "fs"; const fs = 1`, "ParseError: Identifier 'fs' has already been declared", 1, 28},
		{"nested import", `if (true) { import fs from "fs" }`, "UnsupportedSyntax: import declarations are only supported at the top level of a program", 1, 13},
		{"export stays unsupported", "import fs from \"fs\"\nexport const x = 1", "UnsupportedSyntax: export declarations are not supported: a program is a single script without modules", 2, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, line, col := runModules(t, tc.src)
			require.Equal(t, tc.want, got)
			require.Equal(t, []int{tc.line, tc.col}, []int{line, col})
		})
	}
}
