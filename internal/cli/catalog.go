package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/codemode/codemode/client"
)

// toolsetsFilter is the ?toolsets= of a --toolsets list: nil (every toolset) when it names none.
func toolsetsFilter(list string) *client.ToolsetsFilter {
	names := splitNames(list)
	if len(names) == 0 {
		return nil
	}
	filter := client.ToolsetsFilter(strings.Join(names, ","))
	return &filter
}

// newCatalogCmd is `codemode catalog`, which prints the catalog, and `codemode catalog prompt`.
func newCatalogCmd(cf *clientFlags, env Env) *cobra.Command {
	var toolsets string
	cmd := newGroup("catalog", "Print the tools programs can call, or instructions for a model", `  codemode catalog
  codemode catalog --toolsets ops
  codemode catalog prompt --toolsets ops --budget-tokens 500 | jq -r .prompt`, cf, env)
	cmd.Use = "catalog [--toolsets a,b]"
	cmd.Long = `Print the tools programs can call, with their TypeScript signatures: the service's answer
{"tools": [...]}, of the toolsets in --toolsets (default: all). "catalog prompt" prints
instructions for a model-facing execute tool over them.

Every verb prints the service's JSON answer on stdout. An answer with an error status is
printed on stderr and exits 1; a wrong command line exits 2.`
	cmd.Args = cobra.NoArgs
	cmd.Annotations = map[string]string{annotationRunsItself: "true"}
	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
		p := &client.GetCatalogParams{Toolsets: toolsetsFilter(toolsets)}
		return cf.do(cmd, env, func(ctx context.Context, c *client.ClientWithResponses) (response, []byte, error) {
			r, err := c.GetCatalogWithResponse(ctx, p)
			if err != nil {
				return nil, nil, err
			}
			return r, r.Body, nil
		})
	}
	cmd.Flags().StringVar(&toolsets, "toolsets", "", "comma-separated toolset names (default: all)")
	cmd.AddCommand(catalogPrompt(cf, env))
	return cmd
}

func catalogPrompt(cf *clientFlags, env Env) *cobra.Command {
	var toolsets string
	var budget int
	cmd := &cobra.Command{
		Use:   "prompt",
		Short: "Print instructions for a model-facing execute tool over the toolsets",
		Long: `Print instructions for a model-facing execute tool over the toolsets in --toolsets (default:
all): the service's answer {"prompt": "..."}. They list every namespace, and the signatures of
as many tools as --budget-tokens allows (estimated at 4 characters a token, default 2000),
chosen round-robin across namespaces.`,
		Example: `  codemode catalog prompt
  codemode catalog prompt --toolsets ops --budget-tokens 500 | jq -r .prompt`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if budget < 0 {
				return fmt.Errorf("--budget-tokens %d: give a number of tokens, 1 or more (0: the service's default)", budget)
			}
			p := &client.GetCatalogPromptParams{Toolsets: toolsetsFilter(toolsets)}
			if budget > 0 {
				p.BudgetTokens = &budget
			}
			return cf.do(cmd, env, func(ctx context.Context, c *client.ClientWithResponses) (response, []byte, error) {
				r, err := c.GetCatalogPromptWithResponse(ctx, p)
				if err != nil {
					return nil, nil, err
				}
				return r, r.Body, nil
			})
		},
	}
	f := cmd.Flags()
	f.StringVar(&toolsets, "toolsets", "", "comma-separated toolset names (default: all)")
	f.IntVar(&budget, "budget-tokens", 0, "estimated tokens of tool signatures to list (default: the service's, 2000)")
	return cmd
}
