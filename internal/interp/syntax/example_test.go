package syntax_test

import (
	"errors"
	"fmt"

	"github.com/codemode/codemode/internal/interp/syntax"
	"github.com/tdewolff/parse/v2/js"
)

func ExampleParse() {
	src := "const user = await tools.users.get({ id: 1 });\nreturn user.profile.name"
	p, err := syntax.Parse(src, syntax.ModeAsyncBody)
	if err != nil {
		fmt.Println(err)
		return
	}
	ret := p.AST.List[1].(*js.ReturnStmt)
	dot := ret.Value.(*js.DotExpr)
	fmt.Println("strict:", p.Strict)
	fmt.Println("return starts at", p.Pos(ret))
	fmt.Println("reading .name fails at", p.ErrorPos(dot))
	// Output:
	// strict: true
	// return starts at {2 1}
	// reading .name fails at {2 21}
}

func ExampleParse_errors() {
	for _, src := range []string{
		"let a = 1;\nlet a = 2",
		"const f = eval('1 + 1')",
		"x = (;",
	} {
		_, err := syntax.Parse(src, syntax.ModeAsyncBody)
		var e *syntax.Error
		if errors.As(err, &e) {
			fmt.Println(e.Kind, e.Line, e.Column)
		}
	}
	// Output:
	// ParseError 2 5
	// UnsupportedSyntax 1 11
	// ParseError 1 6
}
