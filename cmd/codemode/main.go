// Command codemode is the CLI of the codemode service: dev, eval, migrate and client verbs.
// See internal/cli for the commands.
package main

import (
	"os"

	"github.com/codemode/codemode/internal/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], cli.OSEnv()))
}
