// Command mcpserverd serves the test MCP server (internal/toolset/mcp/mcptest) over streamable
// HTTP at /mcp, printing "listening on http://<addr>/mcp" once ready.
package main

import (
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"

	"github.com/codemode/codemode/internal/toolset/mcp/mcptest"
)

func main() {
	listen := flag.String("listen", "127.0.0.1:0", "address to listen on")
	token := flag.String("token", "", "bearer token required of clients (none when empty)")
	flag.Parse()
	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		log.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", mcptest.Handler(*token))
	fmt.Fprintf(os.Stdout, "listening on http://%s/mcp\n", ln.Addr())
	log.Fatal(http.Serve(ln, mux))
}
