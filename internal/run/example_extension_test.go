package run_test

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/codemode/codemode/internal/run"
)

// A runtime with two extensions: a global function fetch and an object fs, whose readFile is
// synchronous and whose promises.readFile is asynchronous. docs/embedding.md shows this
// example.
func ExampleExtension() {
	files := map[string]string{"notes.txt": "buy milk"}
	readFile := func(_ context.Context, args []any) (any, error) {
		name, _ := args[0].(string)
		text, ok := files[name]
		if !ok {
			return nil, fmt.Errorf("ENOENT: no such file or directory, open '%s'", name)
		}
		return text, nil
	}
	rt, err := run.New(run.Options{
		Extensions: []run.Extension{
			{Name: "fs", Value: map[string]any{
				"readFile": run.SyncFunc(readFile),
				"promises": map[string]any{"readFile": run.AsyncFunc(readFile)},
			}},
			{Name: "fetch", Value: run.AsyncFunc(func(_ context.Context, args []any) (any, error) {
				return map[string]any{"status": 200, "url": args[0]}, nil
			})},
		},
		Hooks: run.Hooks{
			ExtensionBefore: func(_ context.Context, call run.ExtensionCall) error {
				fmt.Println("calling", call.Name, call.Args)
				if strings.HasPrefix(fmt.Sprint(call.Args...), "http:") {
					return fmt.Errorf("plain http is not allowed")
				}
				return nil
			},
		},
		RoundTrip: os.Getenv("CODEMODE_ROUNDTRIP") == "1",
	})
	if err != nil {
		panic(err)
	}
	e, err := rt.Execute(context.Background(), `
import { readFile } from "node:fs/promises";
const notes = await readFile("notes.txt");
const res = await fetch("https://example.com/");
let denied;
try { await fetch("http://example.com/") } catch (err) { denied = err.message }
return { notes, status: res.status, denied, missing: (() => {
  try { fs.readFile("nope.txt") } catch (err) { return err.message }
})() };`, run.ExecOptions{})
	if err != nil {
		panic(err)
	}
	res, _ := e.Result()
	fmt.Println(string(res.Value))
	// Output:
	// calling fs.promises.readFile [notes.txt]
	// calling fetch [https://example.com/]
	// calling fetch [http://example.com/]
	// calling fs.readFile [nope.txt]
	// {"notes":"buy milk","status":200,"denied":"call denied: plain http is not allowed","missing":"ENOENT: no such file or directory, open 'nope.txt'"}
}
