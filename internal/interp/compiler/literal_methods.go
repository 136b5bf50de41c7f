package compiler

import (
	"strings"

	"github.com/tdewolff/parse/v2/js"
)

// BuiltinMethods lists, by the name of a built-in prototype, the methods the compiler counts
// on it having. A call of one of them on a literal ('.'.repeat(3), [a, b].join(), (5).toFixed())
// fails only in a program that replaced the built-in, so it gets no text for V8's "is not a
// function" message (see callMessage): that text would cost every such call a constant in the
// compiled code, and so in every snapshot. A name missing here only costs its calls that
// constant; internal/interp's tests check that every name listed is a method of the pristine
// prototype.
var BuiltinMethods = map[string]string{
	"Object.prototype": "__defineGetter__ __defineSetter__ __lookupGetter__ __lookupSetter__ hasOwnProperty " +
		"isPrototypeOf propertyIsEnumerable toLocaleString toString valueOf",
	"String.prototype": "at charAt charCodeAt codePointAt concat endsWith includes indexOf isWellFormed " +
		"lastIndexOf localeCompare match matchAll normalize padEnd padStart repeat replace replaceAll search " +
		"slice split startsWith substr substring toLocaleLowerCase toLocaleUpperCase toLowerCase toString " +
		"toUpperCase toWellFormed trim trimEnd trimLeft trimRight trimStart valueOf",
	"Number.prototype":  "toExponential toFixed toLocaleString toPrecision toString valueOf",
	"Boolean.prototype": "toString valueOf",
	"Array.prototype": "at concat copyWithin entries every fill filter find findIndex findLast findLastIndex " +
		"flat flatMap forEach includes indexOf join keys lastIndexOf map pop push reduce reduceRight reverse " +
		"shift slice some sort splice toLocaleString toReversed toSorted toSpliced toString unshift values with",
	"RegExp.prototype": "compile exec test toString",
}

// builtinMethodSets is BuiltinMethods as sets.
var builtinMethodSets = func() map[string]map[string]bool {
	sets := map[string]map[string]bool{}
	for proto, names := range BuiltinMethods {
		sets[proto] = map[string]bool{}
		for _, n := range strings.Fields(names) {
			sets[proto][n] = true
		}
	}
	return sets
}()

// literalBuiltinMethod reports whether callee is a built-in method read off a literal (see
// BuiltinMethods): 'abc'.repeat, [1, 2].map, /x/.test, `a${b}`.trim. An object literal is not
// one: its own properties may shadow them.
func literalBuiltinMethod(callee js.IExpr) bool {
	dot, ok := unparen(callee).(*js.DotExpr)
	if !ok || dot.Optional {
		return false
	}
	key, ok := dotKey(dot)
	if !ok {
		return false
	}
	proto := ""
	switch lit := unparen(dot.X).(type) {
	case *js.LiteralExpr:
		switch {
		case lit.TokenType == js.StringToken:
			proto = "String.prototype"
		case lit.TokenType == js.TrueToken || lit.TokenType == js.FalseToken:
			proto = "Boolean.prototype"
		case lit.TokenType == js.RegExpToken:
			proto = "RegExp.prototype"
		case js.IsNumeric(lit.TokenType):
			if _, isNumber := parseNumericLiteral(lit.Data); isNumber {
				proto = "Number.prototype"
			}
		}
	case *js.TemplateExpr:
		if lit.Tag == nil {
			proto = "String.prototype"
		}
	case *js.ArrayExpr:
		proto = "Array.prototype"
	}
	if proto == "" {
		return false
	}
	return builtinMethodSets[proto][key] || builtinMethodSets["Object.prototype"][key]
}
