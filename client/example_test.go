package client_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"time"

	"github.com/codemode/codemode/client"
)

// A program that asks for an approval: the run suspends on the call, the approval is posted,
// and the run resumes to return its value.
func Example() {
	ctx := context.Background()
	url := os.Getenv("CODEMODE_URL") // say http://127.0.0.1:8080
	c, err := client.New(url, os.Getenv("CODEMODE_API_TOKEN"))
	if err != nil {
		log.Fatal(err)
	}
	run, err := c.CreateAndWait(ctx, `
		const {sum} = await tools.ops.math.add({a: 2, b: 40});
		const ok = await tools.ops.approvals.request({reason: "ship " + sum + "?"});
		return ok.approved ? sum : -1`, nil)
	if err != nil {
		log.Fatal(err)
	}
	call := run.Pending[0]
	fmt.Println(run.Status, call.CallId, call.Path)

	if _, err := c.Complete(ctx, run.Id, call.CallId, map[string]any{"approved": true}); err != nil {
		log.Fatal(err)
	}
	run, err = c.Wait(ctx, run.Id, time.Minute)
	if err != nil {
		log.Fatal(err)
	}
	var sum int
	if err := run.Decode(&sum); err != nil {
		log.Fatal(err)
	}
	fmt.Println(run.Status, sum)
	// Output:
	// suspended 2 ops.approvals.request
	// succeeded 42
}
