package compiler

import (
	"bytes"
	"math"
	"strconv"
	"strings"

	"github.com/tdewolff/parse/v2/js"

	"github.com/codemode/codemode/internal/interp/bytecode"
	"github.com/codemode/codemode/internal/interp/jsmath"
	"github.com/codemode/codemode/internal/interp/numconv"
)

// Expressions. Every compileXxx leaves exactly one value on the operand stack.

func (c *compiler) expr(e js.IExpr) {
	if _, ident := e.(*js.Var); !ident {
		defer c.enter(e)()
	}
	switch n := e.(type) {
	case *js.Var:
		name := varName(n)
		if name == "undefined" {
			if b, _ := c.lookup(name); b == nil {
				c.op(bytecode.OpUndef)
				return
			}
		}
		c.markIdent(n)
		c.loadName(name)
	case *js.LiteralExpr:
		c.literal(n)
	case *js.GroupExpr:
		c.expr(n.X)
	case *js.ArrayExpr:
		c.arrayLit(n)
	case *js.ObjectExpr:
		c.objectLit(n)
	case *js.TemplateExpr:
		if n.Tag != nil {
			c.chain(n)
		} else {
			c.template(n)
		}
	case *js.DotExpr, *js.IndexExpr, *js.CallExpr:
		c.chain(n)
	case *js.NewExpr:
		c.newExpr(n)
	case *js.NewTargetExpr:
		c.loadName("new.target")
	case *js.UnaryExpr:
		c.unary(n)
	case *js.BinaryExpr:
		c.binary(n)
	case *js.CondExpr:
		c.expr(n.Cond)
		j := c.emit(bytecode.OpJumpIfFalse, 0, 0)
		c.expr(n.X)
		e := c.emit(bytecode.OpJump, 0, 0)
		c.patch(j)
		c.expr(n.Y)
		c.patch(e)
	case *js.CommaExpr:
		for i, x := range n.List {
			c.expr(x)
			if i < len(n.List)-1 {
				c.op(bytecode.OpPop)
			}
		}
	case *js.YieldExpr:
		c.yield(n)
	case *js.ArrowFunc:
		c.closureNamed(n, "")
	case *js.FuncDecl:
		c.closureNamed(n, "")
	case *js.ClassDecl:
		c.classNamed(n, "")
	case *js.ImportMetaExpr:
		c.unsupported(n, "import.meta")
	default:
		c.fail("UnsupportedSyntax", nil, "expression %T is not supported", e)
	}
}

// namedExpr compiles an initialiser; anonymous functions and classes take the
// name of the binding they are assigned to.
func (c *compiler) namedExpr(e js.IExpr, target any) {
	name := ""
	if v, ok := target.(*js.Var); ok {
		name = varName(v)
	}
	c.namedExprS(e, name)
}

func (c *compiler) namedExprS(e js.IExpr, name string) {
	if name != "" {
		switch n := unparen(e).(type) {
		case *js.ArrowFunc:
			c.closureNamed(n, name)
			return
		case *js.FuncDecl:
			if n.Name == nil {
				c.closureNamed(n, name)
				return
			}
		case *js.ClassDecl:
			if n.Name == nil {
				c.classNamed(n, name)
				return
			}
		}
	}
	c.expr(e)
}

func isAnonymousFn(e js.IExpr) bool {
	switch n := unparen(e).(type) {
	case *js.ArrowFunc:
		return true
	case *js.FuncDecl:
		return n.Name == nil
	case *js.ClassDecl:
		return n.Name == nil
	}
	return false
}

func (c *compiler) literal(n *js.LiteralExpr) {
	switch n.TokenType {
	case js.TrueToken:
		c.op(bytecode.OpTrue)
	case js.FalseToken:
		c.op(bytecode.OpFalse)
	case js.NullToken:
		c.op(bytecode.OpNull)
	case js.ThisToken:
		if b, hops := c.lookup("this"); b != nil {
			c.mark(n)
			c.loadBinding(b, hops)
		} else {
			c.op(bytecode.OpLoadThis)
		}
	case js.StringToken:
		u, ok := decodeStringLiteral(n.Data)
		if !ok {
			c.fail("ParseError", n, "Invalid escape sequence in string literal")
		}
		c.emit(bytecode.OpConst, c.strConst16(u), 0)
	case js.RegExpToken:
		body, flags := splitRegExp(n.Data)
		c.mark(n)
		c.emit(bytecode.OpRegExp, c.strConst16(goToUTF16(body)), c.strConst(flags))
	case js.SuperToken:
		c.fail("ParseError", n, "'super' keyword unexpected here")
	default:
		if js.IsNumeric(n.TokenType) {
			f, ok := parseNumericLiteral(n.Data)
			if !ok {
				c.emit(bytecode.OpConst, c.bigIntConst(n), 0)
				return
			}
			c.emitNumber(f)
			return
		}
		c.fail("UnsupportedSyntax", n, "literal %s is not supported", n.TokenType)
	}
}

func (c *compiler) arrayLit(n *js.ArrayExpr) {
	c.emit(bytecode.OpNewArray, len(n.List), 0)
	for _, el := range n.List {
		switch {
		case el.Value == nil:
			c.op(bytecode.OpArrayHole)
		case el.Spread:
			c.expr(el.Value)
			c.emit(bytecode.OpArraySpread, c.notIterableText(el.Value, false), 0)
		default:
			c.expr(el.Value)
			c.op(bytecode.OpArrayPush)
		}
	}
}

// propertyKeyName returns the static name of a property key, and false for computed keys.
func (c *compiler) propertyKeyName(p *js.PropertyName) (string, bool) {
	if p.Computed != nil {
		return "", false
	}
	lit := p.Literal
	switch {
	case lit.TokenType == js.StringToken:
		u, ok := decodeStringLiteral(lit.Data)
		if !ok {
			c.fail("ParseError", &lit, "Invalid escape sequence in string literal")
		}
		return wtf8FromUTF16(u), true
	case js.IsNumeric(lit.TokenType):
		f, ok := parseNumericLiteral(lit.Data)
		if !ok {
			return c.fs.code.Consts[c.bigIntConst(&lit)].GoString(), true
		}
		return numconv.FormatNumber(f), true
	}
	return identName(lit.Data), true
}

// pushKey pushes a property key (computed keys converted with ToPropertyKey).
func (c *compiler) pushKey(p *js.PropertyName) string {
	if name, ok := c.propertyKeyName(p); ok {
		c.emit(bytecode.OpConst, c.strConst16(wtf8ToUTF16(name)), 0)
		return name
	}
	c.expr(p.Computed)
	c.op(bytecode.OpToPropertyKey)
	return ""
}

// maxLiteralSizeHint bounds the storage an object literal reserves up front.
const maxLiteralSizeHint = 64

func (c *compiler) objectLit(n *js.ObjectExpr) {
	// A is the literal's count of properties (spreads aside), for the object's storage to
	// start at that size instead of growing to it; 0, as earlier code has it, is no hint.
	props := 0
	for _, p := range n.List {
		if !p.Spread {
			props++
		}
	}
	c.emit(bytecode.OpNewObject, min(props, maxLiteralSizeHint), 0)
	for i, p := range n.List {
		if p.Spread {
			c.expr(p.Value)
			c.op(bytecode.OpCopyData)
			continue
		}
		if m, ok := p.Value.(*js.MethodDecl); ok {
			name := c.pushKey(&m.Name.PropertyName)
			prefix := ""
			op := bytecode.OpDefineMethod
			if m.Get {
				prefix, op = "get ", bytecode.OpDefineGetter
			} else if m.Set {
				prefix, op = "set ", bytecode.OpDefineSetter
			}
			c.method(m, prefix+name, m.Name.Computed != nil)
			c.emit(op, 0, 1)
			continue
		}
		if p.Name == nil {
			// shorthand {a}
			v := p.Value.(*js.Var)
			c.expr(v)
			c.emit(bytecode.OpDefineName, c.strConst(varName(v)), 0)
			continue
		}
		if p.Init != nil {
			c.fail("ParseError", p.Value, "Invalid shorthand property initializer")
		}
		name, static := c.propertyKeyName(p.Name)
		if static && name == "__proto__" && p.Name.Literal.TokenType != 0 && !c.src.Shorthand(&n.List[i]) {
			c.expr(p.Value)
			c.op(bytecode.OpSetProto)
			continue
		}
		if static {
			c.namedExprS(p.Value, name)
			c.emit(bytecode.OpDefineName, c.strConst16(wtf8ToUTF16(name)), 0)
			continue
		}
		c.expr(p.Name.Computed)
		c.op(bytecode.OpToPropertyKey)
		c.expr(p.Value)
		if isAnonymousFn(p.Value) {
			c.emit(bytecode.OpSetFnName, 0, 0)
		}
		c.op(bytecode.OpDefineField)
	}
}

// template compiles an untagged template literal.
func (c *compiler) template(n *js.TemplateExpr) {
	count := 0
	for i, p := range n.List {
		u, ok := cookTemplate(p.Value, i == 0)
		if !ok {
			c.fail("ParseError", n, "Invalid escape sequence in template")
		}
		if len(u) > 0 {
			c.emit(bytecode.OpConst, c.strConst16(u), 0)
			count++
		}
		c.expr(p.Expr)
		c.op(bytecode.OpToString)
		count++
	}
	u, ok := cookTemplate(n.Tail, len(n.List) == 0)
	if !ok {
		c.fail("ParseError", n, "Invalid escape sequence in template")
	}
	if len(u) > 0 || count == 0 {
		c.emit(bytecode.OpConst, c.strConst16(u), 0)
		count++
	}
	if count > 1 {
		c.emit(bytecode.OpConcatN, count, 0)
	}
}

// templateSite registers the strings of a tagged template and returns its index.
func (c *compiler) templateSite(n *js.TemplateExpr) int {
	var site bytecode.TemplateSite
	add := func(raw []byte, first bool) {
		u, ok := cookTemplate(raw, first)
		site.Cooked = append(site.Cooked, u)
		site.Valid = append(site.Valid, ok)
		site.Raw = append(site.Raw, rawTemplate(raw, first))
	}
	for i, p := range n.List {
		add(p.Value, i == 0)
	}
	add(n.Tail, len(n.List) == 0)
	c.prog.Templates = append(c.prog.Templates, site)
	return len(c.prog.Templates) - 1
}

// optChain collects the short-circuit jumps of one optional chain.
type optChain struct {
	jumps  []int
	depths []int
}

// chain compiles a member/call/tagged-template expression that may contain optional links.
func (c *compiler) chain(e js.IExpr) {
	oc := &optChain{}
	c.chainPart(e, oc, false)
	if len(oc.jumps) == 0 {
		return
	}
	end := c.emit(bytecode.OpJump, 0, 0)
	var toUndef []int
	for i, j := range oc.jumps {
		c.patch(j)
		for k := 0; k < oc.depths[i]; k++ {
			c.op(bytecode.OpPop)
		}
		toUndef = append(toUndef, c.emit(bytecode.OpJump, 0, 0))
	}
	for _, j := range toUndef {
		c.patch(j)
	}
	c.op(bytecode.OpUndef)
	c.patch(end)
}

func (c *compiler) optional(oc *optChain, depth int) { c.optionalBelow(oc, depth, 0) }

// optionalBelow is optional testing the value below slots from the top of the stack (1 for the
// function of an optional call, under its this).
func (c *compiler) optionalBelow(oc *optChain, depth, below int) {
	oc.jumps = append(oc.jumps, c.emit(bytecode.OpJumpIfNullish, 0, below))
	oc.depths = append(oc.depths, depth)
}

// chainPart compiles e inside an optional chain. With method=true it leaves
// [fn this] (for a call) instead of the value.
func (c *compiler) chainPart(e js.IExpr, oc *optChain, method bool) {
	if _, ident := e.(*js.Var); !ident {
		defer c.enter(e)()
	}
	switch n := e.(type) {
	case *js.DotExpr:
		if isSuper(n.X) {
			c.superBase()
			if method {
				c.loadName("this")
				c.op(bytecode.OpSwap)
				c.emit(bytecode.OpConst, c.strConst(dotName(n)), 0)
				c.superGetFromBase()
				c.op(bytecode.OpSwap)
				return
			}
			c.emit(bytecode.OpConst, c.strConst(dotName(n)), 0)
			c.superGetFromBase()
			return
		}
		c.chainPart(n.X, oc, false)
		if n.Optional {
			c.optional(oc, 1)
		}
		c.mark(n)
		if pv, ok := n.Y.(*js.Var); ok && isPrivateName(pv) {
			if method {
				c.op(bytecode.OpDup)
				c.loadName(varName(pv))
				c.op(bytecode.OpGetPrivate)
				c.op(bytecode.OpSwap)
				return
			}
			c.loadName(varName(pv))
			c.op(bytecode.OpGetPrivate)
			return
		}
		if method {
			c.emit(bytecode.OpGetPropKeep, c.strConst(dotName(n)), 0)
			return
		}
		c.emit(bytecode.OpGetProp, c.strConst(dotName(n)), 0)
	case *js.IndexExpr:
		if isSuper(n.X) {
			c.superBase()
			if method {
				c.loadName("this")
				c.op(bytecode.OpSwap)
				c.expr(n.Y)
				c.op(bytecode.OpToPropertyKey)
				c.superGetFromBase()
				c.op(bytecode.OpSwap)
				return
			}
			c.expr(n.Y)
			c.op(bytecode.OpToPropertyKey)
			c.superGetFromBase()
			return
		}
		c.chainPart(n.X, oc, false)
		if n.Optional {
			c.optional(oc, 1)
		}
		c.expr(n.Y)
		c.mark(n)
		if method {
			c.op(bytecode.OpGetElemKeep)
			return
		}
		c.op(bytecode.OpGetElem)
	case *js.CallExpr:
		if isSuper(n.X) {
			c.superCall(n)
			return
		}
		if isImportCall(n.X) {
			c.dynamicImport(n)
			return
		}
		calleeB := c.calleeName(n.X)
		start := c.pc()
		c.callee(n.X, oc)
		c.markCalleeReads(start, calleeB)
		if n.Optional {
			c.optionalBelow(oc, 2, 1) // the function, under its this
		}
		c.mark(n)
		c.args(n.Args.List, bytecode.OpCall, bytecode.OpCallSpread, c.callMessage(n.X, calleeB))
	case *js.TemplateExpr:
		if n.Tag == nil {
			c.template(n)
			return
		}
		calleeB := c.calleeName(n.Tag)
		start := c.pc()
		c.callee(n.Tag, oc)
		c.markCalleeReads(start, calleeB)
		c.emit(bytecode.OpTemplate, c.templateSite(n), 0)
		for _, p := range n.List {
			c.expr(p.Expr)
		}
		c.mark(n)
		c.emit(bytecode.OpCall, len(n.List)+1, c.callMessage(n.Tag, calleeB))
	case *js.GroupExpr:
		if method {
			switch n.X.(type) {
			case *js.DotExpr, *js.IndexExpr:
				c.chainPart(n.X, &optChain{}, true)
				return
			}
		}
		c.expr(n.X)
		if method {
			c.op(bytecode.OpUndef)
		}
	default:
		c.expr(e)
		if method {
			c.op(bytecode.OpUndef)
		}
	}
}

// callee pushes [fn this] for a call.
func (c *compiler) callee(x js.IExpr, oc *optChain) {
	switch x.(type) {
	case *js.DotExpr, *js.IndexExpr, *js.GroupExpr:
		c.chainPart(x, oc, true)
	case *js.CallExpr, *js.TemplateExpr:
		c.chainPart(x, oc, false)
		c.op(bytecode.OpUndef)
	default:
		c.expr(x)
		c.op(bytecode.OpUndef)
	}
}

// calleeName returns the operand B of a call: 1 + the constant index of the callee's text when
// it is a static member path ("tools.math.add", `tools.x["a-b"]`, "o?.f"), for the "is not a
// function" error and the host's NotCallable hook; 0 otherwise.
func (c *compiler) calleeName(x js.IExpr) int {
	text, ok := staticPath(x)
	if !ok || len(text) > 256 {
		return 0
	}
	return c.strConst(text) + 1
}

// calleeMessage returns the operand B of a call: calleeB when the callee is a static path,
// else, for a path with computed keys (data[k].map), 1 + the constant index of its text as V8
// prints it, marked by a leading NUL as being for the message only: the host's NotCallable
// hook, which resolves tool paths, does not see it.
func (c *compiler) calleeMessage(x js.IExpr, calleeB int) int {
	if calleeB != 0 {
		return calleeB
	}
	text, ok := v8Print(x)
	if !ok || len(text) > 256 {
		return 0
	}
	return c.textConst("\x00"+text) + 1
}

// callMessage is calleeMessage for a call: 0 for a built-in method read off a literal
// ('.'.repeat(n), see BuiltinMethods), whose message then names the value.
func (c *compiler) callMessage(x js.IExpr, calleeB int) int {
	if literalBuiltinMethod(x) {
		return 0
	}
	return c.calleeMessage(x, calleeB)
}

// v8Print renders an expression as V8's CallPrinter does in "x is not a function" and "x
// is not a constructor": calls as f(...), keys that are string literals as dotted names,
// literals as their values ("abc", 5, /re/g, [1,2]), operators in parentheses, values it
// cannot print (a function, a new, an await) as (intermediate value). ok is false for what
// it does not render as V8 would; the message then describes the value.
//
// x itself is printed through: the optional chain that a callee belongs to (o?.a.f in
// o?.a.f()) reads as written. An optional chain nested in x (in parentheses, an operand, an
// element) is one value to V8, printed as (intermediate value): (o?.f)() is
// "(intermediate value) is not a function".
func v8Print(x js.IExpr) (string, bool) { return v8PrintMode(x, false) }

// v8PrintIter is v8Print for V8's "x is not iterable", which prints calls without their
// parentheses (t(a).b is "t.b").
func v8PrintIter(x js.IExpr) (string, bool) { return v8PrintMode(x, true) }

// v8Nested is v8Print of an expression inside the one printed: an optional chain there is
// (intermediate value) (see v8Print).
func v8Nested(x js.IExpr, iter bool) (string, bool) {
	if hasOptional(x) {
		return v8Intermediate, true
	}
	return v8PrintMode(x, iter)
}

// v8Intermediate is how V8's messages print a value they do not render.
const v8Intermediate = "(intermediate value)"

func v8PrintMode(x js.IExpr, iter bool) (string, bool) {
	const intermediate = v8Intermediate
	v8Print := func(x js.IExpr) (string, bool) { return v8PrintMode(x, iter) }
	nested := func(x js.IExpr) (string, bool) { return v8Nested(x, iter) }
	switch n := x.(type) {
	case *js.GroupExpr:
		return nested(n.X)
	case *js.Var:
		return string(n.Data), true
	case *js.LiteralExpr:
		switch {
		case n.TokenType == js.ThisToken || n.TokenType == js.NullToken || n.TokenType == js.TrueToken || n.TokenType == js.FalseToken:
			return string(n.Data), true
		case n.TokenType == js.StringToken:
			// the string's value in double quotes, nothing escaped ('a"b' is "a"b")
			if u, ok := decodeStringLiteral(n.Data); ok {
				return "\"" + wtf8FromUTF16(u) + "\"", true
			}
		case js.IsNumeric(n.TokenType):
			if f, ok := parseNumericLiteral(n.Data); ok {
				return numconv.FormatNumber(f), true
			}
			return intermediate, true // a BigInt
		case n.TokenType == js.RegExpToken:
			body, flags := splitRegExp(n.Data)
			return "/" + body + "/" + v8RegExpFlags(flags), true
		}
	case *js.TemplateExpr:
		if n.Tag != nil {
			// a tagged template is a call of its tag: fn`x`() is "fn(...) is not a function"
			tag, ok := v8Print(n.Tag)
			if !ok || iter {
				return tag, ok
			}
			return tag + "(...)", true
		}
		if len(n.List) == 0 {
			if u, ok := cookTemplate(n.Tail, true); ok {
				return "\"" + wtf8FromUTF16(u) + "\"", true
			}
			break
		}
		// V8 prints a template with substitutions as its substitutions, one after
		// another (`a${k}b${o}c` is "ko")
		var b strings.Builder
		for _, p := range n.List {
			s, ok := nested(p.Expr)
			if !ok {
				return "", false
			}
			b.WriteString(s)
		}
		return b.String(), true
	case *js.ArrayExpr:
		parts := make([]string, len(n.List))
		for i, el := range n.List {
			if el.Value == nil {
				parts[i] = intermediate // a hole
				continue
			}
			p, ok := nested(el.Value)
			if !ok {
				return "", false
			}
			if el.Spread {
				p = "(..." + p + ")"
			}
			parts[i] = p
		}
		return "[" + strings.Join(parts, ",") + "]", true
	case *js.ObjectExpr:
		// V8 prints no property of an object literal, one (intermediate value) for each
		return "{" + strings.Repeat(intermediate, len(n.List)) + "}", true
	case *js.FuncDecl, *js.ArrowFunc, *js.ClassDecl, *js.NewExpr:
		return intermediate, true
	case *js.DotExpr:
		key, ok := dotKey(n)
		if !ok {
			return "", false
		}
		base, ok := v8Base(n.X, iter)
		if !ok {
			return "", false
		}
		if v, isVar := n.Y.(*js.Var); isVar && isPrivateName(v) {
			// V8 prints a private name in brackets: this[#x], this?.[#x]
			if n.Optional {
				return base + "?.[" + key + "]", true
			}
			return base + "[" + key + "]", true
		}
		if n.Optional {
			return base + "?." + key, true
		}
		return base + "." + key, true
	case *js.IndexExpr:
		base, ok := v8Base(n.X, iter)
		if !ok {
			return "", false
		}
		dot, open := ".", "["
		if n.Optional {
			dot, open = "?.", "?.["
		}
		if key, isName := v8StringKey(n.Y); isName {
			return base + dot + key, true // o["a b"] is o.a b
		}
		key, ok := nested(n.Y)
		if !ok {
			return "", false
		}
		return base + open + key + "]", true
	case *js.CallExpr:
		// an optional call prints as a call: o.f?.()() is "o.f(...) is not a function"
		if isSuper(n.X) || isImportCall(n.X) {
			return "", false
		}
		callee, ok := v8Print(n.X)
		if !ok || iter {
			return callee, ok
		}
		return callee + "(...)", true
	case *js.UnaryExpr:
		if f, ok := v8Fold(n); ok {
			return numconv.FormatNumber(f), true
		}
		if n.Op == js.NotToken {
			if t, ok := v8Truthy(n.X); ok {
				// folded into a boolean by V8's parser: !1 is false
				return strconv.FormatBool(!t), true
			}
		}
		switch n.Op {
		case js.AwaitToken:
			return intermediate, true
		case js.YieldToken:
			return "", false
		}
		operand, ok := nested(n.X)
		if !ok {
			return "", false
		}
		switch n.Op {
		case js.PostIncrToken, js.PostDecrToken:
			return "(" + operand + string(n.Op.Bytes()) + ")", true
		case js.TypeofToken, js.VoidToken, js.DeleteToken:
			return "(" + string(n.Op.Bytes()) + " " + operand + ")", true
		}
		return "(" + string(n.Op.Bytes()) + operand + ")", true
	case *js.CondExpr:
		return intermediate + intermediate + intermediate, true
	case *js.CommaExpr:
		parts := make([]string, len(n.List))
		for i, e := range n.List {
			p, ok := nested(e)
			if !ok {
				return "", false
			}
			parts[i] = p
		}
		return "(" + strings.Join(parts, " , ") + ")", true
	case *js.BinaryExpr:
		if isAssignOp(n.Op) {
			return nested(n.X) // an assignment is printed as its target
		}
		if f, ok := v8Fold(n); ok {
			return numconv.FormatNumber(f), true
		}
		l, ok := nested(n.X)
		if !ok {
			return "", false
		}
		r, ok := nested(n.Y)
		if !ok {
			return "", false
		}
		return "(" + l + " " + string(n.Op.Bytes()) + " " + r + ")", true
	}
	return "", false
}

// v8Base prints the object of a member access: super as (intermediate value)
// (super.f() is "(intermediate value).f is not a function"), else as v8Print does.
func v8Base(x js.IExpr, iter bool) (string, bool) {
	if isSuper(x) {
		return v8Intermediate, true
	}
	return v8PrintMode(x, iter)
}

// v8StringKey is the key of a computed member access whose key is a string, a literal or a
// template without substitutions, which V8 prints as a name after a dot; ok is false for any
// other key.
func v8StringKey(key js.IExpr) (string, bool) {
	switch k := key.(type) {
	case *js.LiteralExpr:
		if k.TokenType == js.StringToken {
			if u, ok := decodeStringLiteral(k.Data); ok {
				return wtf8FromUTF16(u), true
			}
		}
	case *js.TemplateExpr:
		if k.Tag == nil && len(k.List) == 0 {
			if u, ok := cookTemplate(k.Tail, true); ok {
				return wtf8FromUTF16(u), true
			}
		}
	}
	return "", false
}

// v8Fold evaluates what V8's parser folds into a number before its messages print it: a
// number literal, a sign or ~ applied to one, and the arithmetic, bitwise and shift operators
// between two (o[1+1] is o[2], -(1) is -1, (1+1)*2 is 4). ok is false for anything else, a
// BigInt included.
func v8Fold(x js.IExpr) (float64, bool) {
	switch n := x.(type) {
	case *js.GroupExpr:
		return v8Fold(n.X)
	case *js.LiteralExpr:
		if js.IsNumeric(n.TokenType) {
			return parseNumericLiteral(n.Data)
		}
	case *js.UnaryExpr:
		switch n.Op {
		case js.NegToken, js.PosToken, js.BitNotToken:
			f, ok := v8Fold(n.X)
			switch {
			case !ok:
				return 0, false
			case n.Op == js.NegToken:
				return -f, true
			case n.Op == js.BitNotToken:
				return float64(^foldInt32(f)), true
			}
			return f, true
		}
	case *js.BinaryExpr:
		l, ok := v8Fold(n.X)
		if !ok {
			return 0, false
		}
		r, ok := v8Fold(n.Y)
		if !ok {
			return 0, false
		}
		switch n.Op {
		case js.AddToken:
			return l + r, true
		case js.SubToken:
			return l - r, true
		case js.MulToken:
			return l * r, true
		case js.DivToken:
			return l / r, true
		case js.ModToken:
			return math.Mod(l, r), true // the sign of the dividend, NaN for x % 0, as in JS
		case js.ExpToken:
			return jsmath.Pow(l, r), true
		case js.BitOrToken:
			return float64(foldInt32(l) | foldInt32(r)), true
		case js.BitAndToken:
			return float64(foldInt32(l) & foldInt32(r)), true
		case js.BitXorToken:
			return float64(foldInt32(l) ^ foldInt32(r)), true
		case js.LtLtToken:
			return float64(foldInt32(l) << (uint32(foldInt32(r)) & 31)), true
		case js.GtGtToken:
			return float64(foldInt32(l) >> (uint32(foldInt32(r)) & 31)), true
		case js.GtGtGtToken:
			return float64(uint32(foldInt32(l)) >> (uint32(foldInt32(r)) & 31)), true
		}
	}
	return 0, false
}

// v8Truthy reports whether a literal V8's parser folds ! on is truthy (ok is false for any
// other expression): a number as v8Fold folds it, a string or template without
// substitutions, a BigInt, true, false, null, and ! of one of these.
func v8Truthy(x js.IExpr) (truthy, ok bool) {
	x = unparen(x)
	if f, ok := v8Fold(x); ok {
		return f == f && f != 0, true
	}
	switch n := x.(type) {
	case *js.LiteralExpr:
		switch {
		case n.TokenType == js.StringToken:
			u, ok := decodeStringLiteral(n.Data)
			return len(u) > 0, ok
		case js.IsNumeric(n.TokenType): // a BigInt
			digits, ok := parseBigIntLiteral(n.Data)
			return strings.Trim(digits, "0") != "", ok
		case n.TokenType == js.TrueToken:
			return true, true
		case n.TokenType == js.FalseToken, n.TokenType == js.NullToken:
			return false, true
		}
	case *js.TemplateExpr:
		if n.Tag == nil && len(n.List) == 0 {
			u, ok := cookTemplate(n.Tail, true)
			return len(u) > 0, ok
		}
	case *js.UnaryExpr:
		if n.Op == js.NotToken {
			t, ok := v8Truthy(n.X)
			return !t, ok
		}
	}
	return false, false
}

// foldInt32 is ToInt32 of a number.
func foldInt32(f float64) int32 {
	if f != f || math.IsInf(f, 0) {
		return 0
	}
	return int32(uint32(int64(math.Mod(math.Trunc(f), 1<<32))))
}

// v8RegExpFlags orders a regular expression literal's flags as V8 prints them (/x/yg is
// /x/gy).
func v8RegExpFlags(flags string) string {
	var b strings.Builder
	for _, f := range "dgilmsuvy" {
		if strings.ContainsRune(flags, f) {
			b.WriteRune(f)
		}
	}
	return b.String()
}

// isAssignOp reports whether op is = or a compound or logical assignment.
func isAssignOp(op js.TokenType) bool {
	b := op.Bytes()
	switch string(b) {
	case "==", "===", "!=", "!==", "<=", ">=":
		return false
	}
	return bytes.HasSuffix(b, []byte("="))
}

// spreadArgText returns the operand A of a call's ArraySpread: 1 + the constant index of
// "\x01" and the argument as V8 prints it, for its messages ("u is not iterable (cannot read
// property undefined)", "Spread syntax requires ...iterable[Symbol.iterator] to be a
// function"); 0 when V8's text is not known.
func (c *compiler) spreadArgText(x js.IExpr) int {
	text, ok := v8Nested(x, false)
	if !ok || len(text) > 256 {
		return 0
	}
	return c.textConst("\x01"+text) + 1
}

// notIterableText returns the operand A of a for-of's GetIter or an array literal's
// ArraySpread: 1 + the constant index of V8's message for an iterable expression that is not
// iterable, naming it as written ("data.items is not iterable", "getItems is not a function
// or its return value is not iterable", also for new Items()) when it is a static path or a
// call of one; 0 otherwise (the message then describes the value). A for await prints calls
// in full ("getItems(...) is not a function or its return value is not async iterable").
func (c *compiler) notIterableText(x js.IExpr, async bool) int {
	what := " is not iterable"
	if async {
		what = " is not async iterable"
	}
	text, ok := v8Nested(x, !async)
	callText := func(call, callee js.IExpr) {
		if async {
			text, ok = v8Print(call)
		} else {
			text, ok = v8PrintIter(callee)
		}
		what = " is not a function or its return value" + what
	}
	switch call := unparen(x).(type) {
	case *js.CallExpr:
		if !hasOptional(call) {
			callText(call, call.X)
		}
	case *js.NewExpr:
		callText(call, call.X)
	}
	if !ok || len(text) > 256 {
		return 0
	}
	return c.textConst(text+what) + 1
}

// forOfIterText is notIterableText for the iterable of a for-of. V8 finds no text for an
// optional chain there: it describes the value ("object null is not iterable (cannot read
// property Symbol(Symbol.iterator))"), and for a chain that ends in a call names the callee
// in those words ("o?.f is not iterable (cannot read property Symbol(Symbol.iterator))"). A
// for await reports the call of the missing method instead: "undefined is not a function",
// "o?.f is not a function".
func (c *compiler) forOfIterText(x js.IExpr, async bool) int {
	chain := unparen(x)
	if !hasOptional(chain) {
		return c.notIterableText(x, async)
	}
	if call, isCall := chain.(*js.CallExpr); isCall {
		text, ok := v8Print(call.X)
		if !ok || len(text) > 256 {
			return 0
		}
		if async {
			return c.textConst(text+" is not a function") + 1
		}
		return c.textConst(text+" is not iterable (cannot read property Symbol(Symbol.iterator))") + 1
	}
	if async {
		return c.strConst("undefined is not a function") + 1
	}
	return c.strConst("\x02") + 1
}

// dotKey is the property name of a dot access (o.name).
func dotKey(n *js.DotExpr) (string, bool) {
	switch y := n.Y.(type) {
	case js.LiteralExpr:
		return string(y.Data), true
	case *js.Var:
		return string(y.Data), true
	}
	return "", false
}

// markCalleeReads gives the property reads of a static callee path emitted from start on
// (tools.ns.f: the reads of ns and f) the callee's text as operand B, so that reading through
// null or undefined on the way lets the host's NotCallable hook name the whole path
// (tools.nope.f() is an unknown tool, not a TypeError).
func (c *compiler) markCalleeReads(start, calleeB int) {
	if calleeB == 0 {
		return
	}
	code := c.fs.code.Code
	for pc := start; pc < len(code); pc++ {
		if (code[pc].Op == bytecode.OpGetProp || code[pc].Op == bytecode.OpGetPropKeep) && code[pc].B == 0 {
			code[pc].B = int32(calleeB)
		}
	}
}

// staticPath renders a callee made of a name and property accesses with literal keys. An
// optional link is written as such (o?.f, o?.["f"]): V8's messages name it so, and the VM
// hands the host the path without them.
func staticPath(x js.IExpr) (string, bool) {
	switch n := x.(type) {
	case *js.Var:
		return string(n.Data), true
	case *js.DotExpr:
		base, ok := staticPath(n.X)
		if !ok {
			return "", false
		}
		if key, ok := dotKey(n); ok {
			if n.Optional {
				return base + "?." + key, true
			}
			return base + "." + key, true
		}
	case *js.IndexExpr:
		base, ok := staticPath(n.X)
		if !ok {
			return "", false
		}
		if lit, isLit := n.Y.(*js.LiteralExpr); isLit && lit.TokenType == js.StringToken {
			if n.Optional {
				return base + "?.[" + string(lit.Data) + "]", true
			}
			return base + "[" + string(lit.Data) + "]", true
		}
	}
	return "", false
}

// args pushes call arguments and emits the call; calleeB is the call's operand B (see
// calleeName; 0 for super calls).
func (c *compiler) args(list []js.Arg, plain, spread bytecode.Op, calleeB int) {
	// The call itself is at the position marked before its arguments, not at its last
	// argument's: an error a built-in raises inside the call (Array.from calling an iterator's
	// next) is located at the call the program wrote.
	at := c.fs.pending
	hasSpread := false
	for _, a := range list {
		if a.Rest {
			hasSpread = true
		}
	}
	if !hasSpread {
		for _, a := range list {
			c.expr(a.Value)
		}
		c.fs.pending = at
		c.emit(plain, len(list), calleeB)
		return
	}
	c.emit(bytecode.OpNewArray, len(list), 0)
	for _, a := range list {
		c.expr(a.Value)
		if a.Rest {
			c.emit(bytecode.OpArraySpread, c.spreadArgText(a.Value), 0)
		} else {
			c.op(bytecode.OpArrayPush)
		}
	}
	c.fs.pending = at
	c.emit(spread, 0, calleeB)
}

func isSuper(e js.IExpr) bool {
	lit, ok := e.(*js.LiteralExpr)
	return ok && lit.TokenType == js.SuperToken
}

func isPrivateName(v *js.Var) bool {
	n := v.Name()
	return len(n) > 0 && n[0] == '#'
}

func dotName(n *js.DotExpr) string {
	switch y := n.Y.(type) {
	case *js.Var:
		return varName(y)
	case *js.LiteralExpr:
		return identName(y.Data)
	case js.LiteralExpr:
		return identName(y.Data)
	}
	return ""
}

// superBase pushes the [[HomeObject]].[[Prototype]] of the running method.
func (c *compiler) superBase() {
	b, hops := c.lookup("%callee")
	if b == nil {
		c.fail("ParseError", nil, "'super' keyword unexpected here")
	}
	c.loadBinding(b, hops)
	c.op(bytecode.OpSuperBase)
}

// superGetFromBase: [base key] -> [base[key] with this as receiver].
func (c *compiler) superGetFromBase() {
	c.loadName("this")
	c.emit(bytecode.OpGetElem, 0, 1) // B=1: receiver on top: [base key this]
}

// superRef pushes [base key] for super.name or super[expr] and reports true; for any other
// expression it emits nothing and reports false. this is read first: before super() in a
// derived constructor the reference throws before its key is evaluated.
func (c *compiler) superRef(x js.IExpr) bool {
	switch t := x.(type) {
	case *js.DotExpr:
		if !isSuper(t.X) {
			return false
		}
		c.loadName("this")
		c.op(bytecode.OpPop)
		c.superBase()
		c.emit(bytecode.OpConst, c.strConst(dotName(t)), 0)
	case *js.IndexExpr:
		if !isSuper(t.X) {
			return false
		}
		c.loadName("this")
		c.op(bytecode.OpPop)
		c.superBase()
		c.expr(t.Y)
		c.op(bytecode.OpToPropertyKey)
	default:
		return false
	}
	return true
}

// superStore stores into a super reference: [base key v] -> [v] with this as the receiver.
func (c *compiler) superStore() {
	c.loadName("this")
	c.emit(bytecode.OpSetElem, 0, 1)
}

// superDelete compiles delete super.x and delete super[k]: the reference is evaluated
// (this, then the key expression), then deleting it throws a ReferenceError.
func (c *compiler) superDelete(x js.IExpr) {
	c.loadName("this")
	c.op(bytecode.OpPop)
	if t, ok := x.(*js.IndexExpr); ok {
		c.expr(t.Y)
		c.op(bytecode.OpPop)
	}
	c.op(bytecode.OpUndef)
	c.emit(bytecode.OpThrowTyp, c.strConst("Unsupported reference to 'super'"), 1) // B=1: ReferenceError
	c.op(bytecode.OpTrue)                                                          // never reached; keeps the stack shape
}

func (c *compiler) superCall(n *js.CallExpr) {
	cb, chops := c.lookup("%callee")
	nb, nhops := c.lookup("new.target")
	if cb == nil || nb == nil {
		c.fail("ParseError", n, "'super' keyword unexpected here")
	}
	c.loadBinding(cb, chops)
	c.loadBinding(nb, nhops)
	c.mark(n)
	c.args(n.Args.List, bytecode.OpSuperCall, bytecode.OpSuperCallSpread, 0)
	// Bind this (a second super() call throws) and run the field initialisers.
	tb, thops := c.lookup("this")
	if tb.captured {
		c.emit(bytecode.OpGetEnv, thops, tb.slot)
	} else {
		c.emit(bytecode.OpGetReg, tb.reg, 0)
	}
	c.emit(bytecode.OpThrowTyp, c.strConst("Super constructor may only be called once"), 1) // B=1: only when initialised
	c.storeBindingKeep(tb)
	c.op(bytecode.OpDup)
	c.loadBinding(cb, chops)
	c.op(bytecode.OpSwap)
	c.emitInitFields() // [this callee this] -> [this]
}

func (c *compiler) storeBindingKeep(b *binding) { c.storeBinding(b, 1) }

func (c *compiler) newExpr(n *js.NewExpr) {
	c.expr(n.X)
	c.mark(n)
	// operand B names the constructor as written, for V8's "Math.abs is not a constructor"
	calleeB := c.calleeMessage(n.X, c.calleeName(n.X))
	if n.Args == nil {
		c.emit(bytecode.OpNew, 0, calleeB)
		return
	}
	c.args(n.Args.List, bytecode.OpNew, bytecode.OpNewSpread, calleeB)
}

func (c *compiler) unary(n *js.UnaryExpr) {
	switch n.Op {
	case js.NegToken:
		c.expr(n.X)
		c.op(bytecode.OpNeg)
	case js.PosToken:
		c.expr(n.X)
		c.mark(n)
		c.op(bytecode.OpPlus)
	case js.NotToken:
		c.expr(n.X)
		c.op(bytecode.OpNot)
	case js.BitNotToken:
		c.expr(n.X)
		c.op(bytecode.OpBitNot)
	case js.VoidToken:
		c.expr(n.X)
		c.op(bytecode.OpPop)
		c.op(bytecode.OpUndef)
	case js.TypeofToken:
		if v, ok := unparen(n.X).(*js.Var); ok {
			if b, _ := c.lookup(varName(v)); b == nil {
				c.emit(bytecode.OpTypeofGlobal, c.strConst(varName(v)), 0)
				return
			}
		}
		c.expr(n.X)
		c.op(bytecode.OpTypeof)
	case js.DeleteToken:
		c.deleteExpr(n)
	case js.AwaitToken:
		c.expr(n.X)
		c.mark(n)
		c.op(bytecode.OpAwait)
	case js.PreIncrToken, js.PreDecrToken, js.PostIncrToken, js.PostDecrToken:
		c.update(n)
	default:
		c.fail("UnsupportedSyntax", n, "operator %s is not supported", n.Op)
	}
}

func (c *compiler) deleteExpr(n *js.UnaryExpr) {
	x := n.X
	for {
		g, ok := x.(*js.GroupExpr)
		if !ok {
			break
		}
		x = g.X
	}
	if t, ok := x.(*js.DotExpr); ok && isSuper(t.X) {
		c.superDelete(t)
		return
	}
	if t, ok := x.(*js.IndexExpr); ok && isSuper(t.X) {
		c.superDelete(t)
		return
	}
	switch t := x.(type) {
	case *js.DotExpr:
		if t.Optional || hasOptional(t.X) {
			c.chainDelete(t)
			return
		}
		c.expr(t.X)
		c.mark(n)
		c.emit(bytecode.OpDeleteProp, c.strConst(dotName(t)), 0)
	case *js.IndexExpr:
		if t.Optional || hasOptional(t.X) {
			c.chainDeleteElem(t)
			return
		}
		c.expr(t.X)
		c.expr(t.Y)
		c.mark(n)
		c.op(bytecode.OpDeleteElem)
	case *js.Var:
		c.fail("ParseError", n, "Delete of an unqualified identifier in strict mode.")
	default:
		c.expr(x)
		c.op(bytecode.OpPop)
		c.op(bytecode.OpTrue)
	}
}

func (c *compiler) chainDelete(t *js.DotExpr) {
	oc := &optChain{}
	c.chainPart(t.X, oc, false)
	if t.Optional {
		c.optional(oc, 1)
	}
	c.emit(bytecode.OpDeleteProp, c.strConst(dotName(t)), 0)
	c.endChainDelete(oc)
}

// chainDeleteElem is delete a?.[k] (or a?.b[k]): true without evaluating k when the chain
// short-circuits, as for a?.b.
func (c *compiler) chainDeleteElem(t *js.IndexExpr) {
	oc := &optChain{}
	c.chainPart(t.X, oc, false)
	if t.Optional {
		c.optional(oc, 1)
	}
	c.expr(t.Y)
	c.op(bytecode.OpDeleteElem)
	c.endChainDelete(oc)
}

// endChainDelete ends an optional-chain delete: a short-circuited chain is true.
func (c *compiler) endChainDelete(oc *optChain) {
	end := c.emit(bytecode.OpJump, 0, 0)
	for _, j := range oc.jumps {
		c.patch(j)
	}
	c.op(bytecode.OpPop)
	c.op(bytecode.OpTrue)
	c.patch(end)
}

func hasOptional(e js.IExpr) bool {
	switch n := e.(type) {
	case *js.DotExpr:
		return n.Optional || hasOptional(n.X)
	case *js.IndexExpr:
		return n.Optional || hasOptional(n.X)
	case *js.CallExpr:
		return n.Optional || hasOptional(n.X)
	}
	return false
}

// update compiles ++ and -- (prefix and postfix).
func (c *compiler) update(n *js.UnaryExpr) {
	inc := bytecode.OpInc
	if n.Op == js.PreDecrToken || n.Op == js.PostDecrToken {
		inc = bytecode.OpDec
	}
	post := n.Op == js.PostIncrToken || n.Op == js.PostDecrToken
	if c.superRef(unparen(n.X)) {
		c.op(bytecode.OpDup2)
		c.mark(n)
		c.superGetFromBase()
		c.updateTail(inc, post, c.superStore)
		return
	}
	switch t := unparen(n.X).(type) {
	case *js.Var:
		c.loadName(varName(t))
		if post {
			c.op(bytecode.OpNumeric)
			c.op(bytecode.OpDup)
			c.op(inc)
			c.assignName(varName(t))
			c.op(bytecode.OpPop)
			return
		}
		c.op(inc)
		c.assignName(varName(t))
	case *js.DotExpr:
		if pv, ok := t.Y.(*js.Var); ok && isPrivateName(pv) {
			c.expr(t.X)
			c.loadName(varName(pv))
			c.op(bytecode.OpDup2)
			c.op(bytecode.OpGetPrivate)
			c.updateTail(inc, post, func() { c.op(bytecode.OpSetPrivate) })
			return
		}
		c.expr(t.X)
		c.op(bytecode.OpDup)
		c.mark(n)
		c.emit(bytecode.OpGetProp, c.strConst(dotName(t)), 0)
		if post {
			c.op(bytecode.OpNumeric)
			c.op(bytecode.OpDup)
			c.op(bytecode.OpRot3)
			c.op(inc)
			c.emit(bytecode.OpSetProp, c.strConst(dotName(t)), 0)
			c.op(bytecode.OpPop)
			return
		}
		c.op(inc)
		c.emit(bytecode.OpSetProp, c.strConst(dotName(t)), 0)
	case *js.IndexExpr:
		c.expr(t.X)
		c.expr(t.Y) // converted by the read and by the write, as in compoundAssign
		c.op(bytecode.OpDup2)
		c.mark(n)
		c.op(bytecode.OpGetElem)
		c.updateTail(inc, post, func() { c.op(bytecode.OpSetElem) })
	default:
		c.fail("ParseError", n, "Invalid left-hand side expression in %s operation", map[bool]string{true: "postfix", false: "prefix"}[post])
	}
}

// updateTail: [base key old] -> [result], writing with store ([base key v] -> [v]).
func (c *compiler) updateTail(inc bytecode.Op, post bool, store func()) {
	if post {
		c.op(bytecode.OpNumeric)
		c.op(bytecode.OpDup)
		c.op(bytecode.OpRot4)
		c.op(inc)
		store()
		c.op(bytecode.OpPop)
		return
	}
	c.op(inc)
	store()
}

func unparen(e js.IExpr) js.IExpr {
	for {
		g, ok := e.(*js.GroupExpr)
		if !ok {
			return e
		}
		e = g.X
	}
}

var binaryOps = map[js.TokenType]bytecode.Op{
	js.AddToken: bytecode.OpAdd, js.SubToken: bytecode.OpSub, js.MulToken: bytecode.OpMul, js.DivToken: bytecode.OpDiv, js.ModToken: bytecode.OpMod,
	js.ExpToken: bytecode.OpExp, js.BitAndToken: bytecode.OpBitAnd, js.BitOrToken: bytecode.OpBitOr, js.BitXorToken: bytecode.OpBitXor,
	js.LtLtToken: bytecode.OpShl, js.GtGtToken: bytecode.OpShr, js.GtGtGtToken: bytecode.OpUShr, js.EqEqToken: bytecode.OpEq, js.NotEqToken: bytecode.OpNe,
	js.EqEqEqToken: bytecode.OpStrictEq, js.NotEqEqToken: bytecode.OpStrictNe, js.LtToken: bytecode.OpLt, js.LtEqToken: bytecode.OpLe,
	js.GtToken: bytecode.OpGt, js.GtEqToken: bytecode.OpGe, js.InToken: bytecode.OpIn, js.InstanceofToken: bytecode.OpInstanceOf,
}

var compoundOps = map[js.TokenType]bytecode.Op{
	js.AddEqToken: bytecode.OpAdd, js.SubEqToken: bytecode.OpSub, js.MulEqToken: bytecode.OpMul, js.DivEqToken: bytecode.OpDiv, js.ModEqToken: bytecode.OpMod,
	js.ExpEqToken: bytecode.OpExp, js.BitAndEqToken: bytecode.OpBitAnd, js.BitOrEqToken: bytecode.OpBitOr, js.BitXorEqToken: bytecode.OpBitXor,
	js.LtLtEqToken: bytecode.OpShl, js.GtGtEqToken: bytecode.OpShr, js.GtGtGtEqToken: bytecode.OpUShr,
}

func (c *compiler) binary(n *js.BinaryExpr) {
	switch n.Op {
	case js.AndToken, js.OrToken, js.NullishToken:
		c.expr(n.X)
		op := bytecode.OpJumpIfFalseKeep
		if n.Op == js.OrToken {
			op = bytecode.OpJumpIfTrueKeep
		} else if n.Op == js.NullishToken {
			op = bytecode.OpJumpIfNotNullishKeep
		}
		j := c.emit(op, 0, 0)
		c.expr(n.Y)
		c.patch(j)
		return
	case js.EqToken:
		c.assign(n)
		return
	case js.AndEqToken, js.OrEqToken, js.NullishEqToken:
		c.logicalAssign(n)
		return
	case js.InToken:
		if pv, ok := n.X.(*js.Var); ok && isPrivateName(pv) {
			c.loadName(varName(pv))
			c.expr(n.Y)
			c.mark(n)
			c.op(bytecode.OpHasPrivate)
			return
		}
	}
	if op, ok := compoundOps[n.Op]; ok {
		c.compoundAssign(n, op)
		return
	}
	op, ok := binaryOps[n.Op]
	if !ok {
		c.fail("UnsupportedSyntax", n, "operator %s is not supported", n.Op)
	}
	c.expr(n.X)
	c.expr(n.Y)
	c.mark(n)
	c.op(op)
}
