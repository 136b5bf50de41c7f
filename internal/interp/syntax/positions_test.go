package syntax

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/tdewolff/parse/v2/js"
)

// nthNode returns the n-th (0-based, in js.Walk order) node whose Go type
// name is typ, e.g. "*js.CallExpr".
func nthNode(t *testing.T, ast *js.AST, typ string, n int) js.INode {
	t.Helper()
	var found js.INode
	count := 0
	js.Walk(visitFunc(func(node js.INode) {
		if found == nil && reflect.TypeOf(node).String() == typ {
			if count == n {
				found = node
			}
			count++
		}
	}), ast)
	require.NotNil(t, found, "no %s #%d", typ, n)
	return found
}

func TestPos(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		src    string
		typ    string
		nth    int
		want   string // "line:column" of Pos
		wantOp string // "line:column" of ErrorPos
	}{
		{name: "call", src: "let a = 1;\n  f(a)", typ: "*js.CallExpr", want: "2:3", wantOp: "2:3"},
		{name: "method call reports property", src: "x;\n  a . b . c (1)", typ: "*js.CallExpr", want: "2:3", wantOp: "2:11"},
		{name: "dot access reports property", src: "let q =   a.b.c;", typ: "*js.DotExpr", want: "1:11", wantOp: "1:15"},
		{name: "inner dot", src: "let q =   a.b.c;", typ: "*js.DotExpr", nth: 1, want: "1:11", wantOp: "1:13"},
		{name: "index access reports bracket", src: "q =   a [ 0 ] [ 1 ];", typ: "*js.IndexExpr", want: "1:7", wantOp: "1:15"},
		{name: "new", src: "\n\n   new   a.b()", typ: "*js.NewExpr", want: "3:4", wantOp: "3:4"},
		{name: "binary operator", src: "let n = 1;  n   + 1", typ: "*js.BinaryExpr", want: "1:13", wantOp: "1:17"},
		{name: "assignment operator", src: "c   = 2", typ: "*js.BinaryExpr", want: "1:1", wantOp: "1:5"},
		{name: "in operator", src: "'x'  in  o", typ: "*js.BinaryExpr", want: "1:1", wantOp: "1:6"},
		{name: "throw statement", src: "if (x) {\n\tthrow new Error('e')\n}", typ: "*js.ThrowStmt", want: "2:2", wantOp: "2:2"},
		{name: "prefix unary", src: "x = typeof y", typ: "*js.UnaryExpr", want: "1:5", wantOp: "1:5"},
		{name: "postfix update", src: "a . x ++", typ: "*js.UnaryExpr", want: "1:1", wantOp: "1:7"},
		{name: "await", src: "const v = await tools.a.b({})", typ: "*js.UnaryExpr", want: "1:11", wantOp: "1:11"},
		{name: "call under await", src: "const v = await tools.a.b({})", typ: "*js.CallExpr", want: "1:17", wantOp: "1:25"},
		{name: "regexp then division", src: "x = /a/g.test('a') / 2; y(1)", typ: "*js.CallExpr", nth: 1, want: "1:25", wantOp: "1:25"},
		{name: "division then regexp", src: "x = a / 2 / b; y = /=/.source; z()", typ: "*js.CallExpr", want: "1:32", wantOp: "1:32"},
		{name: "template literal", src: "s = `a${b}c${ d() }e`", typ: "*js.CallExpr", want: "1:15", wantOp: "1:15"},
		{name: "tagged template", src: "  tag`x`", typ: "*js.TemplateExpr", want: "1:3", wantOp: "1:6"},
		{name: "optional chain", src: "r = o ?. x . y", typ: "*js.DotExpr", want: "1:5", wantOp: "1:14"},
		{name: "arrow expression body", src: "f = x => x.y\ng()", typ: "*js.CallExpr", want: "2:1", wantOp: "2:1"},
		{name: "arrow expression body return", src: "f = (x) =>  x.y", typ: "*js.ReturnStmt", want: "1:13", wantOp: "1:13"},
		{name: "for loop body", src: "for (let i = 0; i < 3; i++) f(i)", typ: "*js.CallExpr", want: "1:29", wantOp: "1:29"},
		{name: "for of braces", src: "for (const x of xs) {\n  g(x)\n}", typ: "*js.CallExpr", want: "2:3", wantOp: "2:3"},
		{name: "class method", src: "class A extends B { static async *m() { yield 1 } #p = 1; get q() { return this.#p } }\nh()", typ: "*js.CallExpr", want: "2:1", wantOp: "2:1"},
		{name: "private member", src: "class A { #p = 1; m(o) { return o.#p } }", typ: "*js.DotExpr", want: "1:33", wantOp: "1:35"},
		{name: "object methods and shorthand", src: "o = {a, b: 1, c() {}, get d() { return 1 }, [e]: 2, ...f}; k()", typ: "*js.CallExpr", want: "1:60", wantOp: "1:60"},
		{name: "destructuring defaults", src: "const {a = f(), b: [c = g()] = []} = o", typ: "*js.CallExpr", nth: 1, want: "1:25", wantOp: "1:25"},
		{name: "switch case", src: "switch (x) {\ncase 1: f(); break\ndefault: g()\n}", typ: "*js.CallExpr", nth: 1, want: "3:10", wantOp: "3:10"},
		{name: "try catch finally", src: "try { a() } catch ({ m }) { b() } finally { c() }", typ: "*js.CallExpr", nth: 2, want: "1:45", wantOp: "1:45"},
		{name: "labelled break", src: "out: for (;;) { break out }", typ: "*js.BranchStmt", want: "1:17", wantOp: "1:17"},
		{name: "comments skipped", src: "/* a() */ // b()\n  /* x */ c()", typ: "*js.CallExpr", want: "2:11", wantOp: "2:11"},
		{name: "astral characters count as two columns", src: "s = '😀'; f()", typ: "*js.CallExpr", want: "1:11", wantOp: "1:11"},
		{name: "CRLF and U+2028 line breaks", src: "a\r\nb\u2028 f()", typ: "*js.CallExpr", want: "3:2", wantOp: "3:2"},
		{name: "new without arguments", src: "x = new A() + g()", typ: "*js.CallExpr", want: "1:15", wantOp: "1:15"},
		{name: "async arrow with default params", src: "h = async ({a} = {}, ...r) => { await a(r) }", typ: "*js.CallExpr", want: "1:39", wantOp: "1:39"},
		{name: "arrow as a later argument", src: "t(TypeError, () => {\n  g(1)\n})", typ: "*js.ArrowFunc", want: "1:14", wantOp: "1:14"},
		{name: "call in arrow after other arguments", src: "t(TypeError, () => {\n  g(1)\n})", typ: "*js.CallExpr", nth: 1, want: "2:3", wantOp: "2:3"},
		{name: "semicolon on the next line is an empty statement", src: "a = 1\n;\nf()", typ: "*js.EmptyStmt", want: "2:1", wantOp: "2:1"},
		{name: "call of an index reports the parenthesis", src: "a  [ 0 ] ( )", typ: "*js.CallExpr", want: "1:1", wantOp: "1:10"},
		{name: "call of a group reports the parenthesis", src: "(0, o.m)  ( 1 )", typ: "*js.CallExpr", want: "1:1", wantOp: "1:11"},
		{name: "optional method call reports the property", src: "a  ?. b  ( )", typ: "*js.CallExpr", want: "1:1", wantOp: "1:7"},
		{name: "tagged template reports the template", src: "a  `x${1}y`", typ: "*js.TemplateExpr", want: "1:1", wantOp: "1:4"},
		{name: "return statement", src: "if (a) {\n  return f()\n}", typ: "*js.ReturnStmt", want: "2:3", wantOp: "2:3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p, err := Parse(tt.src, ModeAsyncBody)
			require.NoError(t, err)
			node := nthNode(t, p.AST, tt.typ, tt.nth)
			pos := p.Pos(node)
			require.Equal(t, tt.want, fmt.Sprintf("%d:%d", pos.Line, pos.Column), "Pos")
			op := p.ErrorPos(node)
			require.Equal(t, tt.wantOp, fmt.Sprintf("%d:%d", op.Line, op.Column), "ErrorPos")
		})
	}
}

func TestPosUnknownNode(t *testing.T) {
	t.Parallel()
	p, err := Parse("f()", ModeAsyncBody)
	require.NoError(t, err)
	require.Equal(t, Position{}, p.Pos(js.LiteralExpr{}))
	require.Equal(t, Position{}, p.Pos(&js.CallExpr{}))
	require.Equal(t, Position{}, p.Pos(nil))
}

func TestIdentPos(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		src    string
		parent string // Go type of the parent node (first of its kind)
		ident  string
		want   string
	}{
		{name: "binary operand", src: "let q =   1 + zz;", parent: "*js.BinaryExpr", ident: "zz", want: "1:15"},
		{name: "callee", src: "x;\n  f(1)", parent: "*js.CallExpr", ident: "f", want: "2:3"},
		{name: "argument", src: "f(a,\n   b)", parent: "*js.CallExpr", ident: "b", want: "2:4"},
		{name: "member object", src: "  foo.bar", parent: "*js.DotExpr", ident: "foo", want: "1:3"},
		{name: "expression statement", src: "\n  x", parent: "*js.ExprStmt", ident: "x", want: "2:3"},
		{name: "first of two uses", src: "  a * a", parent: "*js.BinaryExpr", ident: "a", want: "1:3"},
		{name: "typeof operand", src: "t = typeof  u", parent: "*js.UnaryExpr", ident: "u", want: "1:13"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p, err := Parse(tt.src, ModeAsyncBody)
			require.NoError(t, err)
			parent := nthNode(t, p.AST, tt.parent, 0)
			var v *js.Var
			js.Walk(visitFunc(func(n js.INode) {
				if x, ok := n.(*js.Var); ok && v == nil && string(x.Data) == tt.ident {
					v = x
				}
			}), p.AST)
			require.NotNil(t, v)
			pos := p.IdentPos(parent, v)
			require.Equal(t, tt.want, fmt.Sprintf("%d:%d", pos.Line, pos.Column))
		})
	}
}

func TestTrailingHoles(t *testing.T) {
	t.Parallel()
	tests := []struct {
		src  string
		want int
	}{
		{src: "var [] = x", want: 0},
		{src: "var [,] = x", want: 1},
		{src: "var [,,] = x", want: 2},
		{src: "var [a] = x", want: 0},
		{src: "var [a,] = x", want: 0},
		{src: "var [a,,] = x", want: 1},
		{src: "var [a = f(1, 2),,,] = x", want: 2},
		{src: "var [,a,,] = x", want: 1},
		{src: "var [[b,],] = x", want: 0},
		{src: "var [a, ...r] = x", want: 0},
		{src: "function f([a, , ]) {}", want: 1},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			t.Parallel()
			p, err := Parse(tt.src, ModeAsyncBody)
			require.NoError(t, err)
			ba := nthNode(t, p.AST, "*js.BindingArray", 0).(*js.BindingArray)
			require.Equal(t, tt.want, p.TrailingHoles(ba))
		})
	}
}
