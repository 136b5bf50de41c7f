package interp

import (
	"errors"
	"slices"
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
// again on restore; the prepared input is a cache of the last string matched, the matcher
// and group keys caches of the compiled expression.
type regexpSlots struct {
	source *jsString
	flags  string
	re     *jsregexp.Regexp

	lastStr   *jsString
	lastInput *jsregexp.Input
	matcher   *jsregexp.Matcher // made on first match
	keys      *regexpGroupKeys  // made on first match
}

// setupRegExp installs RegExp, RegExp.prototype and %RegExpStringIteratorPrototype%.
func setupRegExp(r *Realm) {
	proto := r.vm.newObject(r.ObjectPrototype, ClassObject)
	ctor := r.newConstructor("RegExp", 2, regexpConstructor, proto)
	r.getter(ctor, symKey(symSpecies), func(vm *VM, c NativeCall) Value { return c.This })
	r.method(ctor, "escape", 1, regexpEscape)
	setupRegExpLegacy(r, ctor)
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
var regexpFlagGetters = [...]struct {
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

// regexpFlagKeys are the property keys of regexpFlagGetters and the stable names of the
// getters, in the same order.
var regexpFlagKeys = func() (keys [len(regexpFlagGetters)]struct {
	key        PropertyKey
	getterName string
}) {
	for i, f := range regexpFlagGetters {
		keys[i].key, keys[i].getterName = strKey(f.name), "get RegExp.prototype."+f.name
	}
	return keys
}()

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

// isRegExp is the abstract operation IsRegExp: Symbol.match decides, then [[RegExpMatcher]].
func (vm *VM) isRegExp(v Value) bool {
	o := v.asObject()
	if o == nil {
		return false
	}
	if m := vm.getProp(o, symKey(symMatch)); !m.IsUndefined() {
		return ToBoolean(m)
	}
	return regexpOf(o) != nil
}

var keyLastIndex = strKey("lastIndex")

// regexpConstructor is RegExp(pattern, flags).
func regexpConstructor(vm *VM, c NativeCall) Value {
	pattern, flags := c.Arg(0), c.Arg(1)
	isRE := vm.isRegExp(pattern)
	newTarget := c.NewTarget
	if newTarget == nil {
		newTarget = c.Callee
		if isRE && flags.IsUndefined() {
			pc := vm.getProp(pattern.obj(), keyConstructor)
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
		p = vm.getProp(pattern.obj(), strKey("source"))
		f = flags
		if f.IsUndefined() {
			f = vm.getProp(pattern.obj(), strKey("flags"))
		}
	} else {
		p, f = pattern, flags
	}
	o := vm.ordinaryCreateFromConstructor(newTarget, "RegExp.prototype", ClassRegExp)
	o.props.add(keyLastIndex, Property{value: intValue(0), flags: propWritable})
	vm.allocated += propertySize
	vm.regexpInitialize(o, p, f)
	return objectValue(o)
}

// regexpLiteral evaluates a regular expression literal: RegExpCreate with the realm's
// %RegExp%, whatever the global RegExp binding now holds, as the specification says. The
// object is made directly rather than through the constructor, whose generality (IsRegExp,
// the new target's prototype) a literal does not need.
func (vm *VM) regexpLiteral(pattern, flags Value) Value {
	key := regexpLiteralKey{pattern: literalString(pattern), flags: literalString(flags)}
	if c := vm.regexpLiterals[key]; c != nil && key.pattern != nil {
		// the literal was evaluated before: its flags parsed and its pattern compiled then
		r := &regexpObject{}
		o := &r.obj
		o.proto, o.class, o.flags = vm.regexpProtoIntrinsic(), ClassRegExp, objExtensible
		r.keys[0], r.props[0] = keyLastIndex, Property{value: intValue(0), flags: propWritable}
		o.props.keys, o.props.props = r.keys[:], r.props[:]
		if c.matcher == nil {
			c.matcher = c.re.NewMatcher()
		}
		// Every RegExp of the literal shares one matcher and the group keys: a match is
		// copied out before any program code runs, so they serve one object at a time.
		r.slots = regexpSlots{source: c.source, flags: c.flags, re: c.re, matcher: c.matcher, keys: c.groupKeys()}
		o.slots = &r.slots
		vm.allocated += objectBaseSize + propertySize
		return objectValue(o)
	}
	o := vm.newObject(vm.regexpProtoIntrinsic(), ClassRegExp)
	o.props.reserve(1)
	o.props.add(keyLastIndex, Property{value: intValue(0), flags: propWritable})
	vm.allocated += propertySize
	vm.regexpInitialize(o, pattern, flags)
	if rs := regexpOf(o); rs != nil && key.pattern != nil {
		if vm.regexpLiterals == nil {
			vm.regexpLiterals = map[regexpLiteralKey]*regexpSlots{}
		}
		vm.regexpLiterals[key] = &regexpSlots{source: rs.source, flags: rs.flags, re: rs.re}
	}
	return objectValue(o)
}

// regexpObject is a RegExp made by a literal evaluated before, allocated at once with its
// lastIndex property and its state.
type regexpObject struct {
	obj   Object
	keys  [1]PropertyKey
	props [1]Property
	slots regexpSlots
}

// literalString returns the string of a literal's constant, nil when it is not a string.
func literalString(v Value) *jsString {
	if v.kind != KindString {
		return nil
	}
	return v.str()
}

// regexpLiteralKey identifies a regular expression literal by its pattern and flags, the
// constants of the code that evaluates it (flags nil when it has none).
type regexpLiteralKey struct {
	pattern, flags *jsString
}

// regexpInitialize is RegExpInitialize: it parses the flags, compiles the pattern and resets
// lastIndex.
func (vm *VM) regexpInitialize(o *Object, pattern, flags Value) {
	p, f := emptyString, ""
	if !pattern.IsUndefined() {
		p = vm.toString(pattern)
	}
	if !flags.IsUndefined() {
		f = vm.toString(flags).String()
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
	vm.setProp(o, keyLastIndex, intValue(0))
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
		if ToBoolean(vm.getProp(o, strKey(f.name))) {
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
	b.writeString(vm.toString(vm.getProp(o, strKey("source"))))
	b.writeUnit('/')
	b.writeString(vm.toString(vm.getProp(o, strKey("flags"))))
	return stringValue(b.string())
}

// regexpExecMethod is RegExp.prototype.exec.
func regexpExecMethod(vm *VM, c NativeCall) Value {
	o := c.This.asObject()
	if regexpOf(o) == nil {
		vm.throwTypeError("Method RegExp.prototype.exec called on incompatible receiver %s", vm.describeReceiver(c.This))
	}
	return vm.regexpBuiltinExec(o, vm.toString(c.Arg(0)))
}

// regexpTest is RegExp.prototype.test.
func regexpTest(vm *VM, c NativeCall) Value {
	o := c.This.asObject()
	if o == nil {
		vm.throwTypeError("Method RegExp.prototype.test called on incompatible receiver %s", vm.describeReceiver(c.This))
	}
	s := vm.toString(c.Arg(0))
	if regexpOf(o) != nil && vm.hasBuiltinExec(o) {
		m, _ := vm.regexpBuiltinMatch(o, s)
		return Bool(m != nil)
	}
	return Bool(!vm.regexpExec(o, s).IsNull())
}

// regexpExec is RegExpExec: a user-defined exec method if there is one, the built-in one
// otherwise. The result is an object or null.
func (vm *VM) regexpExec(o *Object, s *jsString) Value {
	exec := vm.getProp(o, strKey("exec"))
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
// file comment). It returns nil when there is no match; the Match belongs to rs's matcher
// and is overwritten by the next match.
func (vm *VM) match(rs *regexpSlots, s *jsString, lastIndex int) *jsregexp.Match {
	if rs.lastStr != s || vm.asciiInput.stale(rs.lastInput, s) {
		var in *jsregexp.Input
		var err error
		if f := s.flat(); f.isASCII {
			in, err = vm.asciiInput.input(f.ascii)
		} else {
			in, err = vm.asciiInput.inputUTF16(f.flatUnits(), rs.re.Flags().Unicode || rs.re.Flags().UnicodeSets)
		}
		if err != nil {
			vm.throwRangeError("Invalid string length")
		}
		rs.lastStr, rs.lastInput = s, in
	}
	if rs.matcher == nil {
		rs.matcher = rs.re.NewMatcher()
	}
	slice := firstMatchSlice
	for {
		if vm.checkInterrupt() {
			panic(&abortSignal{err: &Diagnostic{Kind: "TimeoutExceeded", Message: "the run exceeded its time limit"}})
		}
		m, err := rs.matcher.Exec(rs.lastInput, lastIndex, slice)
		switch {
		case err == nil:
			if m != nil {
				vm.recordLegacyMatch(s, m.Start, m.End, m.Groups)
			}
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

// lastIndexProp returns the own lastIndex data property of a RegExp object. Every RegExp
// gets it first, as a non-configurable property that therefore stays a data property in
// place; nil only for a RegExp whose properties were laid out otherwise.
func lastIndexProp(o *Object) *Property {
	if len(o.props.keys) > 0 && o.props.keys[0] == keyLastIndex && !o.props.props[0].isAccessor() {
		return o.props.at(0)
	}
	return nil
}

// getLastIndex is ToLength(Get(o, "lastIndex")) for a RegExp object.
func (vm *VM) getLastIndex(o *Object) int64 {
	if p := lastIndexProp(o); p != nil {
		if v := p.value; v.kind == KindNumber && v.num >= 0 && v.num <= maxSafeInteger && v.num == float64(int64(v.num)) {
			return int64(v.num)
		}
		return vm.toLength(p.value)
	}
	return vm.toLength(vm.getProp(o, keyLastIndex))
}

// putLastIndex is Set(o, "lastIndex", i, true) for a RegExp object: a TypeError when the
// property was made read-only.
func (vm *VM) putLastIndex(o *Object, i int) {
	if p := lastIndexProp(o); p != nil && p.writable() {
		p.value = intValue(i)
		return
	}
	vm.setProp(o, keyLastIndex, intValue(i))
}

// regexpBuiltinExec is RegExpBuiltinExec: one match honouring lastIndex, global and sticky;
// the result array has index, input, groups and (with the d flag) indices.
func (vm *VM) regexpBuiltinExec(o *Object, s *jsString) Value {
	m, rs := vm.regexpBuiltinMatch(o, s)
	if m == nil {
		return nullValue
	}
	return objectValue(vm.execResult(rs, s, m))
}

// execResultObject is an exec result array allocated at once with its named properties
// (index, input, groups; indices is appended) and, for up to three capture groups, its
// elements: all of it lives exactly as long as the array.
type execResultObject struct {
	obj   Object
	keys  [3]PropertyKey
	props [3]Property
	elems [4]Value
}

// execResult builds the array RegExpBuiltinExec returns for match m of rs on s: the match
// and its captures, then index, input, groups and, with the d flag, indices. The array is
// fresh and extensible, so its properties are laid down directly, as newArray and
// CreateDataProperty would make them.
func (vm *VM) execResult(rs *regexpSlots, s *jsString, m *jsregexp.Match) *Object {
	r := &execResultObject{}
	var elems []Value
	if n := len(m.Groups) + 1; n <= len(r.elems) {
		elems = r.elems[:n:n]
	} else {
		elems = make([]Value, n)
	}
	flat := s.flat()
	var subs []jsString // the captured substrings of an ASCII input, allocated at once
	if flat.isASCII {
		k := 0
		if m.End > m.Start {
			k++
		}
		for _, g := range m.Groups {
			if g[1] > g[0] {
				k++
			}
		}
		subs = make([]jsString, k)
	}
	sub := func(from, to int) Value {
		if subs == nil || from >= to || from == 0 && to == flat.Len() {
			return stringValue(flat.substring(from, to))
		}
		js := &subs[0]
		subs = subs[1:]
		*js = jsString{ascii: flat.ascii[from:to], length: int32(to - from), isASCII: true}
		return stringValue(js)
	}
	elems[0] = sub(m.Start, m.End)
	for i, g := range m.Groups {
		if g[0] < 0 {
			elems[i+1] = undefinedValue
		} else {
			elems[i+1] = sub(g[0], g[1])
		}
	}
	a := &r.obj
	a.proto, a.class, a.flags = vm.realm.ArrayPrototype, ClassArray, objExtensible
	a.elems, a.length = elems, uint32(len(elems))
	vm.allocated += objectBaseSize + int64(len(elems))*valueSize + 3*propertySize
	keys := rs.groupKeys()
	groups := undefinedValue
	if keys.named {
		groups = objectValue(vm.groupsObject(keys, elems[1:]))
	}
	r.keys = [3]PropertyKey{keyIndex, keyInput, keyGroups}
	r.props = [3]Property{
		{value: intValue(m.Start), flags: propDefault},
		{value: stringValue(s), flags: propDefault},
		{value: groups, flags: propDefault},
	}
	a.props.keys, a.props.props = r.keys[:], r.props[:]
	if rs.re.Flags().HasIndices {
		vm.allocated += propertySize
		a.props.add(keyIndices, Property{value: objectValue(vm.execIndices(keys, m)), flags: propDefault})
	}
	return a
}

// execIndices builds the indices array of an exec result (the d flag): a [start, end] pair
// per capture, undefined for captures that did not participate, and a groups property.
func (vm *VM) execIndices(keys *regexpGroupKeys, m *jsregexp.Match) *Object {
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
	if keys.named {
		ig = objectValue(vm.groupsObject(keys, pairs[1:]))
	}
	vm.createDataProperty(ind, keyGroups, ig)
	return ind
}

// regexpGroupKeys are the property keys of an expression's named groups, made once per
// RegExp object.
type regexpGroupKeys struct {
	keys   []PropertyKey // per capture group; the zero key for unnamed groups
	named  bool          // some group has a name
	unique bool          // no name is used twice
}

// unnamedGroups are the group keys of every expression without named groups.
var unnamedGroups = regexpGroupKeys{unique: true}

// groupKeys returns the named-group keys of rs, computing them on first use.
func (rs *regexpSlots) groupKeys() *regexpGroupKeys {
	if rs.keys != nil {
		return rs.keys
	}
	names := rs.re.GroupNames()
	if !slices.ContainsFunc(names, func(n string) bool { return n != "" }) {
		rs.keys = &unnamedGroups
		return rs.keys
	}
	k := &regexpGroupKeys{keys: make([]PropertyKey, len(names)), unique: true}
	seen := map[string]bool{}
	for i, name := range names {
		if name == "" {
			continue
		}
		k.named = true
		k.keys[i] = strKey(name)
		if seen[name] {
			k.unique = false
		}
		seen[name] = true
	}
	rs.keys = k
	return k
}

// groupsObject makes the groups object of a match: a null-prototype object with a property
// per group name, in group order, holding vals[i] for group i+1.
func (vm *VM) groupsObject(keys *regexpGroupKeys, vals []Value) *Object {
	g := vm.newObject(nil, ClassObject)
	if !keys.unique {
		// A name shared by groups in different alternatives holds the value of the one that
		// participated, undefined when none did (RegExpBuiltinExec's matchedGroupNames).
		var matched []PropertyKey
		for i, k := range keys.keys {
			if k == (PropertyKey{}) || slices.Contains(matched, k) {
				continue
			}
			if !vals[i].IsUndefined() {
				matched = append(matched, k)
			}
			vm.createDataProperty(g, k, vals[i])
		}
		return g
	}
	for i, k := range keys.keys {
		if k != (PropertyKey{}) {
			g.props.add(k, Property{value: vals[i], flags: propDefault})
			vm.allocated += propertySize
		}
	}
	return g
}

// Keys of the exec result's named properties.
var (
	keyIndex   = strKey("index")
	keyInput   = strKey("input")
	keyGroups  = strKey("groups")
	keyIndices = strKey("indices")
)

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
