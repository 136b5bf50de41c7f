package syntax

import (
	"bytes"
	"reflect"

	"github.com/tdewolff/parse/v2/js"
)

// The AST carries no positions. They are recovered by walking the tree in
// source order while a cursor moves over the lexer's tokens: every node
// consumes the tokens it is made of, literals and names resynchronise the
// cursor through their byte slices (which point into the parsed buffer), and
// keywords and punctuators are found by searching forward for the expected
// token. A node's start is the first token it consumed.

// positions holds the recovered byte offsets of nodes, keyed by node pointer.
type positions struct {
	start map[js.INode]int // where the node starts
	op    map[js.INode]int // where V8 reports a run-time error in the node
	// text holds the source text of functions and classes ([start, end) byte offsets), as
	// Function.prototype.toString returns it: a method's from its name (after "static"),
	// an arrow function's from its parameters to the end of its body.
	text map[js.INode][2]int
	// bareNew holds the new expressions written without an argument list
	// ("new C"), which tdewolff does not tell from "new C()".
	bareNew map[*js.NewExpr]bool
	// shorthand holds the object literal properties written as a bare name
	// ({a} or {a = 1}), which tdewolff stores like {a: a}.
	shorthand map[*js.Property]bool
	// ident holds where an identifier is used as a direct operand of a
	// node (first use when the node uses it twice).
	ident map[identKey]int
	// restComma holds array and object literals with a comma after a spread
	// element, which is an error once they are used as assignment patterns.
	restComma map[js.INode]bool
	// holes holds the number of elisions at the end of array binding
	// patterns ([a,,] has one, [,] one), which tdewolff drops from the list.
	holes map[*js.BindingArray]int
	// errOff and errMsg describe the first syntax error that only shows in
	// the tokens (tdewolff accepts it); errOff is -1 when there is none.
	errOff int
	errMsg string
}

// identKey names one identifier use: the variable and the node using it.
type identKey struct {
	parent js.INode
	v      *js.Var
}

// posWalker aligns the source-order AST walk with the token stream.
type posWalker struct {
	buf  *buffer
	toks []token
	i    int // index of the next unconsumed token
	pos  positions
	// parent is the innermost statement or expression being walked.
	parent js.INode
	misses int // failed searches so far
}

// regexpOffsets returns the source offsets of every regular expression literal.
func regexpOffsets(ast *js.AST, buf *buffer) map[int]bool {
	set := map[int]bool{}
	js.Walk(visitFunc(func(n js.INode) {
		if lit, ok := n.(*js.LiteralExpr); ok && lit.TokenType == js.RegExpToken {
			if off := buf.offset(lit.Data); off >= 0 {
				set[off] = true
			}
		}
	}), ast)
	return set
}

type visitFunc func(n js.INode)

func (f visitFunc) Enter(n js.INode) js.IVisitor { f(n); return f }
func (f visitFunc) Exit(js.INode)                {}

// computePositions recovers node positions for a program parsed from buf;
// offsets are mapped back to the original source.
func computePositions(ast *js.AST, buf *buffer) positions {
	toks := lexTokens(buf.b, regexpOffsets(ast, buf))
	w := &posWalker{
		buf:  buf,
		toks: toks,
		pos: positions{
			start:     make(map[js.INode]int, len(toks)/2),
			op:        make(map[js.INode]int, len(toks)/4),
			text:      map[js.INode][2]int{},
			bareNew:   map[*js.NewExpr]bool{},
			restComma: map[js.INode]bool{},
			holes:     map[*js.BindingArray]int{},
			shorthand: map[*js.Property]bool{},
			ident:     make(map[identKey]int, len(toks)/4),
			errOff:    -1,
		},
	}
	w.stmts(ast.List)
	w.pos.errOff = buf.toOrig(w.pos.errOff)
	if len(buf.inserted) > 0 {
		for n, off := range w.pos.start {
			w.pos.start[n] = buf.toOrig(off)
		}
		for n, off := range w.pos.op {
			w.pos.op[n] = buf.toOrig(off)
		}
		for k, off := range w.pos.ident {
			w.pos.ident[k] = buf.toOrig(off)
		}
		for n, r := range w.pos.text {
			w.pos.text[n] = [2]int{buf.toOrig(r[0]), buf.toOrig(r[1])}
		}
	}
	return w.pos
}

// syntaxError records the first token-level syntax error, at the next token.
func (w *posWalker) syntaxError(msg string) {
	if w.pos.errOff >= 0 {
		return
	}
	w.pos.errOff = len(w.buf.b)
	if w.i < len(w.toks) {
		w.pos.errOff = w.toks[w.i].off
	}
	w.pos.errMsg = msg
}

// ident consumes an identifier (a use or a binding name) and records its
// position under the current parent node.
func (w *posWalker) ident(v *js.Var) int {
	off := w.name(v)
	key := identKey{w.parent, v}
	if _, seen := w.pos.ident[key]; !seen && off >= 0 && isPointer(w.parent) {
		w.pos.ident[key] = off
	}
	return off
}

// enterParent makes n the parent of the identifiers walked until the
// returned parent is restored.
func (w *posWalker) enterParent(n js.INode) js.INode {
	prev := w.parent
	w.parent = n
	return prev
}

// isNilNode reports a nil node, including a typed nil pointer.
func isNilNode(n js.INode) bool {
	if n == nil {
		return true
	}
	v := reflect.ValueOf(n)
	return v.Kind() == reflect.Pointer && v.IsNil()
}

// isPointer reports a node held by pointer, the only kind that can key the
// position tables.
func isPointer(n js.INode) bool {
	return n != nil && reflect.TypeOf(n).Kind() == reflect.Pointer
}

func (w *posWalker) record(n js.INode, off int) {
	if off >= 0 && isPointer(n) {
		w.pos.start[n] = off
	}
}

// recordText records that the text of n starts at start and ends with the last token
// consumed.
func (w *posWalker) recordText(n js.INode, start int) {
	if start < 0 || w.i == 0 || w.misses > 0 {
		return
	}
	last := w.toks[w.i-1]
	if end := last.off + int(last.n); end > start {
		w.pos.text[n] = [2]int{start, end}
	}
}

func (w *posWalker) recordOp(n js.INode, off int) {
	if off >= 0 && isPointer(n) {
		w.pos.op[n] = off
	}
}

// peek returns the next unconsumed token type, or ErrorToken at the end.
func (w *posWalker) peek() js.TokenType {
	if w.i < len(w.toks) {
		return w.toks[w.i].tt
	}
	return js.ErrorToken
}

// accept consumes the next token when it has type tt and returns its
// offset, or -1.
func (w *posWalker) accept(tt js.TokenType) int {
	if w.peek() == tt {
		w.i++
		return w.toks[w.i-1].off
	}
	return -1
}

// seek consumes tokens up to and including the next one matching ok and
// returns its offset; it returns -1 and consumes nothing when none matches.
//
// A failed search scans to the end of the tokens, so after maxMisses of them
// (which only a misaligned walk produces) searching stops and the remaining
// nodes without a literal anchor get no position; this keeps the walk linear.
func (w *posWalker) seekFunc(ok func(token) bool) int {
	if w.misses > maxMisses {
		return -1
	}
	for j := w.i; j < len(w.toks); j++ {
		if ok(w.toks[j]) {
			w.i = j + 1
			return w.toks[j].off
		}
	}
	w.misses++
	return -1
}

// maxMisses bounds the failed token searches of one walk.
const maxMisses = 64

func (w *posWalker) seek(tts ...js.TokenType) int {
	return w.seekFunc(func(t token) bool {
		for _, tt := range tts {
			if t.tt == tt {
				return true
			}
		}
		return false
	})
}

// anchor moves the cursor past the token that starts where data starts and
// returns its offset. When data is not a slice of the source it falls back to
// the next token matching fallback.
func (w *posWalker) anchor(data []byte, fallback func(token) bool) int {
	if off := w.buf.offset(data); off >= 0 {
		lo, hi := 0, len(w.toks)
		for lo < hi {
			m := (lo + hi) / 2
			if w.toks[m].off < off {
				lo = m + 1
			} else {
				hi = m
			}
		}
		if lo < len(w.toks) && w.toks[lo].off == off {
			w.i = lo + 1
			return off
		}
	}
	return w.seekFunc(fallback)
}

func isNameToken(t token) bool {
	return js.IsIdentifierName(t.tt) || t.tt == js.PrivateIdentifierToken
}

// name consumes an identifier use or binding name.
func (w *posWalker) name(v *js.Var) int {
	return w.seekFunc(func(t token) bool {
		if !isNameToken(t) || v == nil {
			return isNameToken(t)
		}
		text := w.buf.b[t.off : t.off+int(t.n)]
		return bytes.Equal(text, v.Data) || bytes.IndexByte(text, '\\') >= 0
	})
}

func first(offs ...int) int {
	for _, o := range offs {
		if o >= 0 {
			return o
		}
	}
	return -1
}

// args walks an argument list and returns the offset of its '('.
func (w *posWalker) args(a *js.Args) int {
	open := w.seek(js.OpenParenToken)
	for i := range a.List {
		if a.List[i].Rest {
			w.seek(js.EllipsisToken)
		}
		w.expr(a.List[i].Value)
	}
	w.seek(js.CloseParenToken)
	return open
}

// unaryToken maps a UnaryExpr operator to the token the lexer produces.
func unaryToken(op js.TokenType) js.TokenType {
	switch op {
	case js.PosToken:
		return js.AddToken
	case js.NegToken:
		return js.SubToken
	case js.PreIncrToken, js.PostIncrToken:
		return js.IncrToken
	case js.PreDecrToken, js.PostDecrToken:
		return js.DecrToken
	}
	return op
}

// expr walks an expression and returns its start offset (or -1).
func (w *posWalker) expr(e js.IExpr) int {
	if isNilNode(e) {
		return -1
	}
	if v, ok := e.(*js.Var); ok {
		return w.ident(v)
	}
	prevParent := w.parent
	w.parent = e
	defer func() { w.parent = prevParent }()
	start, op := -1, -1
	switch n := e.(type) {
	case *js.LiteralExpr:
		start = w.anchor(n.Data, func(t token) bool { return t.tt == n.TokenType || isNameToken(t) })
	case *js.GroupExpr:
		start = w.seek(js.OpenParenToken)
		w.expr(n.X)
		w.seek(js.CloseParenToken)
	case *js.ArrayExpr:
		start = w.seek(js.OpenBracketToken)
		for i := range n.List {
			if n.List[i].Spread {
				w.seek(js.EllipsisToken)
			}
			w.expr(n.List[i].Value)
			if n.List[i].Spread && w.peek() == js.CommaToken {
				w.pos.restComma[n] = true
			}
		}
		w.seek(js.CloseBracketToken)
	case *js.ObjectExpr:
		start = w.seek(js.OpenBraceToken)
		for i := range n.List {
			w.property(n, &n.List[i])
		}
		w.seek(js.CloseBraceToken)
	case *js.TemplateExpr:
		if n.Tag != nil {
			start = w.expr(n.Tag)
			if n.Optional {
				w.seek(js.OptChainToken)
			}
		}
		isTpl := func(t token) bool { return t.tt >= js.TemplateToken && t.tt <= js.TemplateEndToken }
		tpl := -1
		for i := range n.List {
			tpl = first(tpl, w.anchor(n.List[i].Value, isTpl))
			w.expr(n.List[i].Expr)
		}
		tpl = first(tpl, w.anchor(n.Tail, isTpl))
		start = first(start, tpl)
		op = tpl
	case *js.DotExpr:
		start = w.expr(n.X)
		w.seek(js.DotToken, js.OptChainToken)
		switch y := n.Y.(type) {
		case *js.Var:
			op = w.name(y)
		case *js.LiteralExpr:
			op = w.anchor(y.Data, isNameToken)
		case js.LiteralExpr:
			op = w.anchor(y.Data, isNameToken)
		}
	case *js.IndexExpr:
		start = w.expr(n.X)
		if n.Optional {
			w.seek(js.OptChainToken)
		}
		op = w.seek(js.OpenBracketToken)
		w.expr(n.Y)
		w.seek(js.CloseBracketToken)
	case *js.CallExpr:
		start = w.expr(n.X)
		if n.Optional {
			w.seek(js.OptChainToken)
		}
		open := w.args(&n.Args)
		// V8 points at the property name of a method call, at the callee
		// of a plain call, and at the '(' otherwise
		switch n.X.(type) {
		case *js.DotExpr:
			op = start
			if off, ok := w.pos.op[n.X]; ok {
				op = off
			}
		case *js.Var:
			op = start
		default:
			op = first(open, start)
		}
	case *js.NewExpr:
		start = w.seek(js.NewToken)
		w.expr(n.X)
		if n.Args != nil {
			w.args(n.Args)
		} else if w.peek() == js.OpenParenToken && w.i+1 < len(w.toks) && w.toks[w.i+1].tt == js.CloseParenToken {
			w.i += 2
		} else {
			w.pos.bareNew[n] = true
		}
	case *js.NewTargetExpr:
		start = w.seek(js.NewToken)
		w.seek(js.TargetToken)
	case *js.ImportMetaExpr:
		start = w.seek(js.ImportToken)
		w.seek(js.MetaToken)
	case *js.UnaryExpr:
		tt := unaryToken(n.Op)
		if n.Op == js.PostIncrToken || n.Op == js.PostDecrToken {
			start = w.expr(n.X)
			op = w.seek(tt)
		} else {
			start = w.seek(tt)
			op = start
			w.expr(n.X)
		}
	case *js.BinaryExpr:
		start = w.expr(n.X)
		op = w.seek(n.Op)
		start = first(start, op)
		w.expr(n.Y)
	case *js.CondExpr:
		start = w.expr(n.Cond)
		w.seek(js.QuestionToken)
		w.expr(n.X)
		w.seek(js.ColonToken)
		w.expr(n.Y)
	case *js.YieldExpr:
		start = w.seek(js.YieldToken)
		if n.Generator {
			w.seek(js.MulToken)
		}
		w.expr(n.X)
	case *js.CommaExpr:
		for _, x := range n.List {
			start = first(start, w.expr(x))
		}
	case *js.ArrowFunc:
		start = w.arrow(n)
	case *js.FuncDecl:
		start = w.funcDecl(n)
	case *js.ClassDecl:
		start = w.classDecl(n)
	case *js.VarDecl:
		start = w.varDecl(n)
	case *js.MethodDecl:
		start = w.methodDecl(n)
	}
	w.record(e, start)
	if op >= 0 && op != start {
		w.recordOp(e, op) // ErrorPos falls back to the start
	}
	return start
}

func (w *posWalker) property(obj *js.ObjectExpr, p *js.Property) {
	if p.Spread {
		w.seek(js.EllipsisToken)
		w.expr(p.Value)
		if w.peek() == js.CommaToken {
			w.pos.restComma[obj] = true
		}
		return
	}
	if p.Name == nil {
		w.expr(p.Value) // method definition
		return
	}
	start := w.propertyName(p.Name)
	if w.accept(js.ColonToken) >= 0 {
		w.expr(p.Value)
		return
	}
	w.pos.shorthand[p] = true
	if _, isVar := p.Value.(*js.Var); isVar && start >= 0 {
		// a shorthand property is a lone name: tdewolff drops a prefix such
		// as "async" or "*" it could not use
		prev := w.i - 2
		bad := prev >= 0 && w.toks[prev].tt != js.OpenBraceToken && w.toks[prev].tt != js.CommaToken
		if next := w.peek(); next != js.CommaToken && next != js.CloseBraceToken && next != js.EqToken {
			bad = true
		}
		if bad {
			w.syntaxError("Unexpected token in object literal: a shorthand property is a single name")
		}
	}
	// shorthand property, possibly with a cover-grammar initializer
	if _, isVar := p.Value.(*js.Var); !isVar {
		w.record(p.Value, start)
	}
	if p.Init != nil {
		w.seek(js.EqToken)
		w.expr(p.Init)
	}
}

func (w *posWalker) arrow(n *js.ArrowFunc) int {
	defer func(prev js.INode) { w.parent = prev }(w.enterParent(n))
	start := -1
	if n.Async {
		start = w.seek(js.AsyncToken)
	}
	// the parameters are either a parenthesised list or one identifier
	off := w.seekFunc(func(t token) bool { return t.tt == js.OpenParenToken || isNameToken(t) })
	start = first(start, off)
	if off >= 0 && w.toks[w.i-1].tt == js.OpenParenToken {
		w.params(&n.Params)
		if n.Params.Rest != nil && w.peek() == js.CommaToken {
			w.syntaxError("A rest parameter or binding pattern may not have a trailing comma")
		}
		w.seek(js.CloseParenToken)
	} else if off >= 0 && len(n.Params.List) == 1 {
		if v, ok := n.Params.List[0].Binding.(*js.Var); ok {
			w.pos.ident[identKey{n, v}] = off
		}
	}
	w.seek(js.ArrowToken)
	if w.peek() == js.OpenBraceToken {
		w.block(&n.Body)
	} else if len(n.Body.List) == 1 {
		if ret, ok := n.Body.List[0].(*js.ReturnStmt); ok {
			w.record(ret, w.expr(ret.Value))
		}
	}
	w.recordText(n, start)
	return start
}
