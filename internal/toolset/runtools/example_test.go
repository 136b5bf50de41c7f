package runtools_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"

	"github.com/codemode/codemode/internal/run"
	"github.com/codemode/codemode/internal/toolcall"
	"github.com/codemode/codemode/internal/toolset"
	"github.com/codemode/codemode/internal/toolset/runtools"
	"github.com/codemode/codemode/internal/toolset/toolsettest"
)

func ExampleLoad() {
	h, err := toolsettest.NewHandler(toolsettest.Options{})
	if err != nil {
		panic(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()

	tools, namespaces, err := runtools.Load(context.Background(), toolset.Config{URL: srv.URL, Name: "ops"})
	if err != nil {
		panic(err)
	}
	box, err := run.NewToolbox(tools, namespaces)
	if err != nil {
		panic(err)
	}
	add, _ := box.Lookup("ops.math.add")
	out, err := add.Execute(context.Background(), json.RawMessage(`{"a":2,"b":3}`), toolcall.Call{RunID: "r1", CallID: 1, Key: "r1:1", Path: add.Path})
	fmt.Println(string(out), err)
	fmt.Println(box.Catalog()[0].Path)
	// Output:
	// {"sum":5} <nil>
	// ops.approvals.request
}
