package interp

import (
	"errors"
	"strings"
	"time"

	"github.com/codemode/codemode/internal/interp/jsregexp"
)

// The RegExp global on package jsregexp: the constructor, the flag and source accessors,
// exec/test/toString and RegExpBuiltinExec. The symbol methods that String.prototype
// dispatches to are in builtin_regexp_symbols.go.
//
// Every match runs under a time slice: when a slice passes, the match is abandoned if the run
// was interrupted (its context ended), which ends the run with a TimeoutExceeded diagnostic,
// and restarted with a doubled slice otherwise. A catastrophic backtracking pattern therefore
// cannot outlive the run's deadline by more than maxMatchSlice.

func init() { registerBuiltin("RegExp", 12, setupRegExp) }

const (
	// firstMatchSlice is the first time slice of a regular expression match.
	firstMatchSlice = 50 * time.Millisecond
	// maxMatchSlice is the longest time slice of a match (the slices double up to it).
	maxMatchSlice = time.Second
)

// regexpSlots is the internal state of a RegExp object: [[OriginalSource]],
// [[OriginalFlags]] and the compiled matcher. Snapshots keep source and flags and compile
// again on restore; the prepared input is a cache of the last string matched.
type regexpSlots struct {
	source *jsString
	flags  string
	re     *jsregexp.Regexp

	lastStr   *jsString
	lastInput *jsregexp.Input
}

// setupRegExp installs RegExp, RegExp.prototype and %RegExpStringIteratorPrototype%.
func setupRegExp(r *Realm) {
	proto := r.vm.newObject(r.ObjectPrototype, ClassObject)
	ctor := r.newConstructor("RegExp", 2, regexpConstructor, proto)
	r.getter(ctor, symKey(symSpecies), func(vm *VM, c NativeCall) Value { return c.This })
	r.method(ctor, "escape", 1, regexpEscape)
	r.method(proto, "exec", 1, regexpExecMethod)
	r.method(proto, "test", 1, regexpTest)
	r.method(proto, "toString", 0, regexpToString)
	r.method(proto, "compile", 2, regexpCompile)
	r.getter(proto, strKey("flags"), regexpFlagsGetter)
	r.getter(proto, strKey("source"), regexpSourceGetter)
	for _, f := range regexpFlagGetters {
		r.getter(proto, strKey(f.name), f.get)
	}
	r.symbolMethod(proto, symMatch, 1, regexpSymbolMatch, propHidden)
	r.symbolMethod(proto, symMatchAll, 1, regexpSymbolMatchAll, propHidden)
	r.symbolMethod(proto, symReplace, 2, regexpSymbolReplace, propHidden)
	r.symbolMethod(proto, symSearch, 1, regexpSymbolSearch, propHidden)
	r.symbolMethod(proto, symSplit, 2, regexpSymbolSplit, propHidden)
	r.defineGlobal("RegExp", objectValue(ctor))

	ip := r.vm.newObject(r.IteratorPrototype, ClassObject)
	r.addIntrinsic("%RegExpStringIteratorPrototype%", ip)
	r.method(ip, "next", 0, regexpStringIteratorNext)
	r.value(ip, symKey(symToStringTag), asciiValue("RegExp String Iterator"), propConfigurable)
}

// regexpFlagGetters are the boolean flag accessors of RegExp.prototype, in the order
// RegExp.prototype.flags reads them.
var regexpFlagGetters = []struct {
	name string
	char byte
	get  NativeFunc
}{
	{"hasIndices", 'd', flagGetter("hasIndices", 'd')},
	{"global", 'g', flagGetter("global", 'g')},
	{"ignoreCase", 'i', flagGetter("ignoreCase", 'i')},
	{"multiline", 'm', flagGetter("multiline", 'm')},
	{"dotAll", 's', flagGetter("dotAll", 's')},
	{"unicode", 'u', flagGetter("unicode", 'u')},
	{"unicodeSets", 'v', flagGetter("unicodeSets", 'v')},
	{"sticky", 'y', flagGetter("sticky", 'y')},
}

// flagGetter makes the getter of one flag: true or false on a RegExp, undefined on
// RegExp.prototype itself, a TypeError otherwise.
func flagGetter(name string, char byte) NativeFunc {
	return func(vm *VM, c NativeCall) Value {
		o := c.This.asObject()
		if o == nil {
			vm.throwTypeError("RegExp.prototype.%s getter called on non-object %s", name, vm.describeForError(c.This))
		}
		if rs := regexpOf(o); rs != nil {
			return Bool(strings.IndexByte(rs.flags, char) >= 0)
		}
		if o == vm.realm.Intrinsic("RegExp.prototype") {
			return undefinedValue
		}
		vm.throwTypeError("RegExp.prototype.%s getter called on non-RegExp object", name)
		return undefinedValue
	}
}

// regexpOf returns the RegExp state of o, or nil when o is not a RegExp.
func regexpOf(o *Object) *regexpSlots {
	if o == nil || o.class != ClassRegExp {
		return nil
	}
	rs, _ := o.slots.(*regexpSlots)
	return rs
}

// IsRegExp is the abstract operation IsRegExp: Symbol.match decides, then [[RegExpMatcher]].
func (vm *VM) IsRegExp(v Value) bool {
	o := v.asObject()
	if o == nil {
		return false
	}
	if m := vm.GetProp(o, symKey(symMatch)); !m.IsUndefined() {
		return ToBoolean(m)
	}
	return regexpOf(o) != nil
}

var keyLastIndex = strKey("lastIndex")

// regexpConstructor is RegExp(pattern, flags).
func regexpConstructor(vm *VM, c NativeCall) Value {
	pattern, flags := c.Arg(0), c.Arg(1)
	isRE := vm.IsRegExp(pattern)
	newTarget := c.NewTarget
	if newTarget == nil {
		newTarget = c.Callee
		if isRE && flags.IsUndefined() {
			pc := vm.GetProp(pattern.obj(), keyConstructor)
			if pc.kind == KindObject && pc.obj() == newTarget {
				return pattern
			}
		}
	}
	var p, f Value
	if rs := regexpOf(pattern.asObject()); rs != nil {
		p = stringValue(rs.source)
		f = flags
		if f.IsUndefined() {
			f = asciiValue(rs.flags)
		}
	} else if isRE {
		p = vm.GetProp(pattern.obj(), strKey("source"))
		f = flags
		if f.IsUndefined() {
			f = vm.GetProp(pattern.obj(), strKey("flags"))
		}
	} else {
		p, f = pattern, flags
	}
	o := vm.OrdinaryCreateFromConstructor(newTarget, "RegExp.prototype", ClassRegExp)
	o.props.add(keyLastIndex, Property{value: intValue(0), flags: propWritable})
	vm.allocated += propertySize
	vm.regexpInitialize(o, p, f)
	return objectValue(o)
}

// regexpInitialize is RegExpInitialize: it parses the flags, compiles the pattern and resets
// lastIndex.
func (vm *VM) regexpInitialize(o *Object, pattern, flags Value) {
	p, f := emptyString, ""
	if !pattern.IsUndefined() {
		p = vm.ToString(pattern)
	}
	if !flags.IsUndefined() {
		f = vm.ToString(flags).String()
	}
	fl, err := jsregexp.ParseFlags(f)
	if err != nil {
		vm.throwSyntaxError("%s", err.Error())
	}
	re, err := jsregexp.Compile(p.units(), fl)
	if err != nil {
		vm.throwSyntaxError("%s", err.Error())
	}
	o.slots = &regexpSlots{source: p, flags: f, re: re}
	vm.SetProp(o, keyLastIndex, intValue(0))
}

// regexpCompile is RegExp.prototype.compile (Annex B): reinitializes this in place.
func regexpCompile(vm *VM, c NativeCall) Value {
	o := c.This.asObject()
	if regexpOf(o) == nil {
		vm.throwTypeError("Method RegExp.prototype.compile called on incompatible receiver %s", vm.describeReceiver(c.This))
	}
	pattern, flags := c.Arg(0), c.Arg(1)
	if rs := regexpOf(pattern.asObject()); rs != nil {
		if !flags.IsUndefined() {
			vm.throwTypeError("Cannot supply flags when constructing one RegExp from another")
		}
		pattern, flags = stringValue(rs.source), asciiValue(rs.flags)
	}
	vm.regexpInitialize(o, pattern, flags)
	return c.This
}

// regexpSourceGetter is get RegExp.prototype.source: the pattern escaped as V8 does.
func regexpSourceGetter(vm *VM, c NativeCall) Value {
	o := c.This.asObject()
	if o == nil {
		vm.throwTypeError("RegExp.prototype.source getter called on non-object %s", vm.describeForError(c.This))
	}
	rs := regexpOf(o)
	if rs == nil {
		if o == vm.realm.Intrinsic("RegExp.prototype") {
			return asciiValue("(?:)")
		}
		vm.throwTypeError("RegExp.prototype.source getter called on non-RegExp object")
	}
	if rs.source.Len() == 0 {
		return asciiValue("(?:)")
	}
	return stringValue(newUTF16(jsregexp.EscapeSource(rs.source.units())))
}

// regexpFlagsGetter is get RegExp.prototype.flags: generic over the flag accessors.
func regexpFlagsGetter(vm *VM, c NativeCall) Value {
	o := c.This.asObject()
	if o == nil {
		vm.throwTypeError("RegExp.prototype.flags getter called on non-object %s", vm.describeForError(c.This))
	}
	var b []byte
	for _, f := range regexpFlagGetters {
		if ToBoolean(vm.GetProp(o, strKey(f.name))) {
			b = append(b, f.char)
		}
	}
	return asciiValue(string(b))
}

// regexpToString is RegExp.prototype.toString: "/" + source + "/" + flags, generic.
func regexpToString(vm *VM, c NativeCall) Value {
	o := c.This.asObject()
	if o == nil {
		vm.throwTypeError("Method RegExp.prototype.toString called on incompatible receiver %s", vm.describeReceiver(c.This))
	}
	var b stringBuilder
	b.writeUnit('/')
	b.writeString(vm.ToString(vm.GetProp(o, strKey("source"))))
	b.writeUnit('/')
	b.writeString(vm.ToString(vm.GetProp(o, strKey("flags"))))
	return stringValue(b.string())
}

// regexpExecMethod is RegExp.prototype.exec.
func regexpExecMethod(vm *VM, c NativeCall) Value {
	o := c.This.asObject()
	if regexpOf(o) == nil {
		vm.throwTypeError("Method RegExp.prototype.exec called on incompatible receiver %s", vm.describeReceiver(c.This))
	}
	return vm.regexpBuiltinExec(o, vm.ToString(c.Arg(0)))
}

// regexpTest is RegExp.prototype.test.
func regexpTest(vm *VM, c NativeCall) Value {
	o := c.This.asObject()
	if o == nil {
		vm.throwTypeError("Method RegExp.prototype.test called on incompatible receiver %s", vm.describeReceiver(c.This))
	}
	return Bool(!vm.regexpExec(o, vm.ToString(c.Arg(0))).IsNull())
}

// regexpExec is RegExpExec: a user-defined exec method if there is one, the built-in one
// otherwise. The result is an object or null.
func (vm *VM) regexpExec(o *Object, s *jsString) Value {
	exec := vm.GetProp(o, strKey("exec"))
	if IsCallable(exec) {
		res := vm.Call(exec, objectValue(o), stringValue(s))
		if res.kind != KindObject && res.kind != KindNull {
			vm.throwTypeError("RegExp exec method returned something other than an Object or null")
		}
		return res
	}
	if regexpOf(o) == nil {
		vm.throwTypeError("Method RegExp.prototype.exec called on incompatible receiver %s", vm.describeReceiver(objectValue(o)))
	}
	return vm.regexpBuiltinExec(o, s)
}

// match runs the compiled expression of rs on s from lastIndex under time slices (see the
// file comment). It returns nil when there is no match.
func (vm *VM) match(rs *regexpSlots, s *jsString, lastIndex int) *jsregexp.Match {
	if rs.lastStr != s {
		in, err := jsregexp.NewInput(s.units(), rs.re.Flags().Unicode || rs.re.Flags().UnicodeSets)
		if err != nil {
			vm.throwRangeError("Invalid string length")
		}
		rs.lastStr, rs.lastInput = s, in
	}
	slice := firstMatchSlice
	for {
		if vm.checkInterrupt() {
			panic(&abortSignal{err: &Diagnostic{Kind: "TimeoutExceeded", Message: "the run exceeded its time limit"}})
		}
		m, err := rs.re.ExecInput(rs.lastInput, lastIndex, time.Now().Add(slice))
		switch {
		case err == nil:
			return m
		case errors.Is(err, jsregexp.ErrTimeout):
			slice = min(2*slice, maxMatchSlice)
		case errors.Is(err, jsregexp.ErrBacktrackLimit):
			vm.throwRangeError("Maximum call stack size exceeded")
		default:
			vm.throwRangeError("Invalid string length")
		}
	}
}

// regexpBuiltinExec is RegExpBuiltinExec: one match honouring lastIndex, global and sticky;
// the result array has index, input, groups and (with the d flag) indices.
func (vm *VM) regexpBuiltinExec(o *Object, s *jsString) Value {
	rs := regexpOf(o)
	n := s.Len()
	li := vm.ToLength(vm.GetProp(o, keyLastIndex))
	global := strings.IndexByte(rs.flags, 'g') >= 0
	sticky := strings.IndexByte(rs.flags, 'y') >= 0
	hasIndices := strings.IndexByte(rs.flags, 'd') >= 0
	if !global && !sticky {
		li = 0
	}
	if li > int64(n) {
		if global || sticky {
			vm.SetProp(o, keyLastIndex, intValue(0))
		}
		return nullValue
	}
	m := vm.match(rs, s, int(li))
	if m == nil {
		if global || sticky {
			vm.SetProp(o, keyLastIndex, intValue(0))
		}
		return nullValue
	}
	if global || sticky {
		vm.SetProp(o, keyLastIndex, intValue(m.End))
	}
	elems := make([]Value, len(m.Groups)+1)
	elems[0] = stringValue(s.substring(m.Start, m.End))
	for i, g := range m.Groups {
		if g[0] < 0 {
			elems[i+1] = undefinedValue
		} else {
			elems[i+1] = stringValue(s.substring(g[0], g[1]))
		}
	}
	a := vm.newArray(elems)
	vm.CreateDataProperty(a, strKey("index"), intValue(m.Start))
	vm.CreateDataProperty(a, strKey("input"), stringValue(s))
	groups := undefinedValue
	hasNames := false
	for _, name := range m.Names {
		if name != "" {
			hasNames = true
			break
		}
	}
	if hasNames {
		g := vm.newObject(nil, ClassObject)
		for i, name := range m.Names {
			if name != "" {
				vm.CreateDataProperty(g, strKey(name), elems[i+1])
			}
		}
		groups = objectValue(g)
	}
	vm.CreateDataProperty(a, strKey("groups"), groups)
	if hasIndices {
		pair := func(start, end int) Value {
			if start < 0 {
				return undefinedValue
			}
			return vm.newArrayValue([]Value{intValue(start), intValue(end)})
		}
		pairs := make([]Value, len(m.Groups)+1)
		pairs[0] = pair(m.Start, m.End)
		for i, g := range m.Groups {
			pairs[i+1] = pair(g[0], g[1])
		}
		ind := vm.newArray(pairs)
		ig := undefinedValue
		if hasNames {
			g := vm.newObject(nil, ClassObject)
			for i, name := range m.Names {
				if name != "" {
					vm.CreateDataProperty(g, strKey(name), pairs[i+1])
				}
			}
			ig = objectValue(g)
		}
		vm.CreateDataProperty(ind, strKey("groups"), ig)
		vm.CreateDataProperty(a, strKey("indices"), objectValue(ind))
	}
	return objectValue(a)
}

// advanceStringIndex is AdvanceStringIndex: the next index, past a surrogate pair in
// unicode mode.
func advanceStringIndex(s *jsString, i int64, unicode bool) int64 {
	if !unicode || i+1 >= int64(s.Len()) {
		return i + 1
	}
	_, n := s.codePointAt(int(i))
	return i + int64(n)
}

// regexpEscape is RegExp.escape(string) (ES2025): the string with every character that could
// mean something in a pattern escaped, so that new RegExp(RegExp.escape(s)) matches s.
func regexpEscape(vm *VM, c NativeCall) Value {
	v := c.Arg(0)
	if v.kind != KindString {
		vm.throwTypeError("RegExp.escape requires a string argument")
	}
	s := v.str()
	var b stringBuilder
	hex := func(prefix string, n uint16, digits int) {
		const hexDigits = "0123456789abcdef"
		b.writeGo(prefix)
		for shift := 4 * (digits - 1); shift >= 0; shift -= 4 {
			b.writeUnit(uint16(hexDigits[(n>>shift)&0xF]))
		}
	}
	for i := 0; i < s.Len(); {
		cp, n := s.codePointAt(i)
		i += n
		switch {
		case b.len() == 0 && (cp >= '0' && cp <= '9' || cp >= 'a' && cp <= 'z' || cp >= 'A' && cp <= 'Z'):
			hex("\\x", uint16(cp), 2)
		case cp < 0x80 && strings.IndexByte("^$\\.*+?()[]{}|/", byte(cp)) >= 0:
			b.writeUnit('\\')
			b.writeUnit(uint16(cp))
		case cp >= '\t' && cp <= '\r':
			b.writeUnit('\\')
			b.writeUnit(uint16("tnvfr"[cp-'\t']))
		case cp < 0x80 && strings.IndexByte(",-=<>#&!%:;@~'`\"", byte(cp)) >= 0,
			isJSSpace(cp), cp >= 0xD800 && cp <= 0xDFFF:
			if cp <= 0xFF {
				hex("\\x", uint16(cp), 2)
			} else {
				hex("\\u", uint16(cp), 4)
			}
		default:
			b.writeRune(cp)
		}
	}
	vm.checkStringLength(int64(b.len()))
	return stringValue(b.string())
}
