package interp

import (
	"math"
	"strings"
	"sync/atomic"

	"github.com/codemode/codemode/internal/interp/jsregexp"
)

// RegExp.prototype[Symbol.match], [Symbol.matchAll], [Symbol.replace], [Symbol.search] and
// [Symbol.split], and %RegExpStringIteratorPrototype%. They are generic: they read flags
// and lastIndex through properties and match through RegExpExec, as the specification says.

// thisRegExpObject checks that this is an object for a RegExp symbol method.
func thisRegExpObject(vm *VM, c NativeCall, method string) *Object {
	o := c.This.asObject()
	if o == nil {
		vm.throwTypeError("Method RegExp.prototype.%s called on incompatible receiver %s", method, vm.describeReceiver(c.This))
	}
	return o
}

// regexpFlagsOf reads ToString(rx.flags). When that would run the built-in flags getter over
// the built-in flag getters (builtinFlagsGetters), it computes what they return instead of
// calling ten accessors: replace, match and split read the flags on every call.
func (vm *VM) regexpFlagsOf(rx *Object) string {
	if rs := regexpOf(rx); rs != nil && builtinFlagsGetters(rx) {
		var buf [len(regexpFlagGetters)]byte
		b := buf[:0]
		for i := range regexpFlagGetters {
			if c := regexpFlagGetters[i].char; strings.IndexByte(rs.flags, c) >= 0 {
				b = append(b, c)
			}
		}
		if string(b) == rs.flags {
			return rs.flags
		}
		return string(b)
	}
	return vm.toString(vm.getProp(rx, keyFlags)).String()
}

var keyFlags = strKey("flags")

// builtinFlagsGetters reports whether Get(rx, "flags") finds the built-in flags getter, and
// the getter's reads of the flag properties find the built-in flag getters: rx has no own
// property but lastIndex and its prototype holds them all, so no program code runs.
func builtinFlagsGetters(rx *Object) bool {
	proto := rx.proto
	if proto == nil || len(rx.props.keys) != 1 || rx.props.keys[0] != keyLastIndex {
		return false
	}
	if !isBuiltinGetter(peekAt(&proto.props, keyFlags, &flagsGetterAt), "get RegExp.prototype.flags") {
		return false
	}
	for i := range regexpFlagKeys {
		f := &regexpFlagKeys[i]
		if !isBuiltinGetter(peekAt(&proto.props, f.key, &flagGetterAt[i]), f.getterName) {
			return false
		}
	}
	return true
}

// flagsGetterAt and flagGetterAt are where RegExp.prototype held the flags accessors when
// last looked up: every realm lays the prototype out alike, so the position found once is
// checked first and the lookup (hashing the key) is mostly skipped.
var (
	flagsGetterAt atomic.Int32
	flagGetterAt  [len(regexpFlagGetters)]atomic.Int32
)

// peekAt is m.peek(key), trying position *at first and remembering where key was found.
func peekAt(m *propertyMap, key PropertyKey, at *atomic.Int32) *Property {
	if i := int(at.Load()); i < len(m.keys) && m.keys[i] == key {
		return &m.props[i]
	}
	i := m.find(key)
	if i < 0 {
		return nil
	}
	at.Store(int32(i))
	return &m.props[i]
}

// isBuiltinGetter reports whether p is an accessor whose getter is the built-in function of
// that stable name (from any realm: they all behave alike).
func isBuiltinGetter(p *Property, name string) bool {
	if p == nil || !p.isAccessor() {
		return false
	}
	g := p.getter()
	if g == nil {
		return false
	}
	nf, ok := g.slots.(*nativeFunction)
	return ok && nf.name == name
}

// setLastIndex is Set(rx, "lastIndex", i, true).
func (vm *VM) setLastIndex(rx *Object, i int64) {
	if p := lastIndexProp(rx); p != nil && p.writable() {
		p.value = Number(float64(i))
		return
	}
	vm.setProp(rx, keyLastIndex, Number(float64(i)))
}

// advanceAfterEmpty moves lastIndex past an empty match.
func (vm *VM) advanceAfterEmpty(rx *Object, s *jsString, unicode bool) {
	li := vm.toLength(vm.getProp(rx, keyLastIndex))
	vm.setLastIndex(rx, advanceStringIndex(s, li, unicode))
}

// regexpSymbolMatch is RegExp.prototype[Symbol.match].
func regexpSymbolMatch(vm *VM, c NativeCall) Value {
	rx := thisRegExpObject(vm, c, "@@match")
	s := vm.toString(c.Arg(0))
	flags := vm.regexpFlagsOf(rx)
	if !strings.Contains(flags, "g") {
		return vm.regexpExec(rx, s)
	}
	unicode := strings.ContainsAny(flags, "uv")
	if rs := vm.fastRegExp(rx, true, unicode); rs != nil {
		return vm.regexpMatchFast(rx, rs, s, unicode)
	}
	vm.setLastIndex(rx, 0)
	var found []Value
	for {
		res := vm.regexpExec(rx, s)
		if res.IsNull() {
			if len(found) == 0 {
				return nullValue
			}
			return vm.newArrayValue(found)
		}
		m := vm.toString(vm.getProp(res.obj(), strKey("0")))
		found = append(found, stringValue(m))
		vm.chargeElems(1)
		if m.Len() == 0 {
			vm.advanceAfterEmpty(rx, s, unicode)
		}
	}
}

// regexpStringIterator is the slot data of a RegExp String Iterator (matchAll).
type regexpStringIterator struct {
	matcher Value // the RegExp being iterated
	str     Value // the string
	global  bool
	unicode bool
	done    bool
}

// regexpSymbolMatchAll is RegExp.prototype[Symbol.matchAll].
func regexpSymbolMatchAll(vm *VM, c NativeCall) Value {
	rx := thisRegExpObject(vm, c, "@@matchAll")
	s := vm.toString(c.Arg(0))
	ctor := vm.speciesConstructor(rx, objectValue(vm.realm.Intrinsic("RegExp")))
	flags := vm.toString(vm.getProp(rx, strKey("flags")))
	matcher := vm.construct(ctor, nil, objectValue(rx), stringValue(flags))
	li := vm.toLength(vm.getProp(rx, keyLastIndex))
	vm.setLastIndex(matcher.obj(), li)
	fs := flags.String()
	o := vm.newObject(vm.realm.Intrinsic("%RegExpStringIteratorPrototype%"), ClassIterator)
	o.slots = &regexpStringIterator{matcher: matcher, str: stringValue(s),
		global: strings.Contains(fs, "g"), unicode: strings.ContainsAny(fs, "uv")}
	return objectValue(o)
}

// regexpStringIteratorNext is %RegExpStringIteratorPrototype%.next.
func regexpStringIteratorNext(vm *VM, c NativeCall) Value {
	var it *regexpStringIterator
	if o := c.This.asObject(); o != nil {
		it, _ = o.slots.(*regexpStringIterator)
	}
	if it == nil {
		vm.throwTypeError("Method RegExp String Iterator.prototype.next called on incompatible receiver %s", vm.describeReceiver(c.This))
	}
	if it.done {
		return vm.createIterResultObject(undefinedValue, true)
	}
	rx, s := it.matcher.obj(), it.str.str()
	res := vm.regexpExec(rx, s)
	if res.IsNull() {
		it.done = true
		return vm.createIterResultObject(undefinedValue, true)
	}
	if !it.global {
		it.done = true
		return vm.createIterResultObject(res, false)
	}
	if vm.toString(vm.getProp(res.obj(), strKey("0"))).Len() == 0 {
		vm.advanceAfterEmpty(rx, s, it.unicode)
	}
	return vm.createIterResultObject(res, false)
}

// getSubstitution is GetSubstitution on interpreter values: namedCaptures is undefined or an
// object whose properties are read (and converted) as "$<name>" asks. strUnits are the code
// units of str, which callers that substitute many times compute once; a template without
// '$' is returned as it is.
func (vm *VM) getSubstitution(matched, str *jsString, strUnits []uint16, position int, captures []Value, namedCaptures Value, template *jsString) *jsString {
	if !hasDollar(template) {
		return template
	}
	if strUnits == nil {
		strUnits = str.units()
	}
	caps := make([][]uint16, len(captures))
	for i, cv := range captures {
		if !cv.IsUndefined() {
			caps[i] = vm.toString(cv).units()
			if caps[i] == nil {
				caps[i] = []uint16{}
			}
		}
	}
	var named func([]uint16) []uint16
	if !namedCaptures.IsUndefined() {
		groups := vm.toObject(namedCaptures)
		named = func(name []uint16) []uint16 {
			v := vm.getProp(groups, jsStringKey(newUTF16(append([]uint16(nil), name...))))
			if v.IsUndefined() {
				return nil
			}
			return vm.toString(v).units()
		}
	}
	out := jsregexp.Substitute(nil, matched.units(), strUnits, position, caps, named, template.units())
	vm.checkStringLength(int64(len(out)))
	return vm.newJSString(out)
}

// regexpSymbolReplace is RegExp.prototype[Symbol.replace].
func regexpSymbolReplace(vm *VM, c NativeCall) Value {
	rx := thisRegExpObject(vm, c, "@@replace")
	s := vm.toString(c.Arg(0))
	replaceValue := c.Arg(1)
	functional := IsCallable(replaceValue)
	var template *jsString
	if !functional {
		template = vm.toString(replaceValue)
	}
	flags := vm.regexpFlagsOf(rx)
	global := strings.Contains(flags, "g")
	unicode := false
	if global {
		unicode = strings.ContainsAny(flags, "uv")
		vm.setLastIndex(rx, 0)
		if rs := vm.fastRegExp(rx, true, unicode); rs != nil {
			return vm.regexpReplaceFast(rx, rs, s, unicode, replaceValue, template)
		}
	} else if rs := regexpOf(rx); rs != nil && !rs.re.Flags().Global && vm.hasBuiltinExec(rx) {
		return vm.regexpReplaceOnce(rx, s, replaceValue, template)
	}
	var results []*Object
	for {
		res := vm.regexpExec(rx, s)
		if res.IsNull() {
			break
		}
		results = append(results, res.obj())
		if !global {
			break
		}
		if vm.toString(vm.getProp(res.obj(), strKey("0"))).Len() == 0 {
			vm.advanceAfterEmpty(rx, s, unicode)
		}
	}
	var sUnits []uint16
	if !functional && hasDollar(template) && len(results) > 1 {
		sUnits = s.units()
	}
	var b stringBuilder
	next := 0
	for _, res := range results {
		nCaps := max(vm.lengthOfArrayLike(res)-1, 0)
		matched := vm.toString(vm.getProp(res, strKey("0")))
		pos := int(math.Max(0, math.Min(vm.toIntegerOrInfinity(vm.getProp(res, strKey("index"))), float64(s.Len()))))
		captures := make([]Value, 0, nCaps)
		for i := int64(1); i <= nCaps; i++ {
			cv := vm.getIndex(res, i)
			if !cv.IsUndefined() {
				cv = stringValue(vm.toString(cv))
			}
			captures = append(captures, cv)
		}
		named := vm.getProp(res, strKey("groups"))
		var repl *jsString
		if functional {
			args := make([]Value, 0, len(captures)+4)
			args = append(args, stringValue(matched))
			args = append(args, captures...)
			args = append(args, intValue(pos), stringValue(s))
			if !named.IsUndefined() {
				args = append(args, named)
			}
			repl = vm.toString(vm.Call(replaceValue, undefinedValue, args...))
		} else {
			if !named.IsUndefined() {
				named = objectValue(vm.toObject(named))
			}
			repl = vm.getSubstitution(matched, s, sUnits, pos, captures, named, template)
		}
		if pos >= next {
			b.writeString(s.substring(next, pos))
			b.writeString(repl)
			vm.checkStringLength(int64(b.len()))
			next = pos + matched.Len()
		}
	}
	if next >= s.Len() {
		vm.allocated += int64(b.len()) * 2
		return stringValue(b.string())
	}
	b.writeString(s.substring(next, s.Len()))
	vm.checkStringLength(int64(b.len()))
	vm.allocated += int64(b.len()) * 2
	return stringValue(b.string())
}

// regexpSymbolSearch is RegExp.prototype[Symbol.search].
func regexpSymbolSearch(vm *VM, c NativeCall) Value {
	rx := thisRegExpObject(vm, c, "@@search")
	s := vm.toString(c.Arg(0))
	prev := vm.getProp(rx, keyLastIndex)
	if !SameValue(prev, intValue(0)) {
		vm.setLastIndex(rx, 0)
	}
	res := vm.regexpExec(rx, s)
	if cur := vm.getProp(rx, keyLastIndex); !SameValue(cur, prev) {
		vm.setProp(rx, keyLastIndex, prev)
	}
	if res.IsNull() {
		return intValue(-1)
	}
	return vm.getProp(res.obj(), strKey("index"))
}

// regexpSymbolSplit is RegExp.prototype[Symbol.split]: it matches with a sticky copy of
// the expression made through the species constructor.
func regexpSymbolSplit(vm *VM, c NativeCall) Value {
	rx := thisRegExpObject(vm, c, "@@split")
	s := vm.toString(c.Arg(0))
	if rs := vm.plainSplitter(rx); rs != nil && s.Len() > 0 {
		// The splitter would be new RegExp(rx, flags + "y") made without running program
		// code, with the built-in exec: search with rx's own expression (without y).
		lim := splitLimit(vm, c.Arg(1))
		var out []Value
		if lim == 0 {
			return vm.newArrayValue(out)
		}
		search := rs
		if fl := rs.re.Flags(); fl.Sticky {
			fl.Sticky = false
			re, err := jsregexp.Compile(rs.source.units(), fl)
			if err != nil {
				vm.throwSyntaxError("%s", err.Error())
			}
			search = &regexpSlots{source: rs.source, re: re}
		}
		vm.splitWith(search, s, strings.ContainsAny(rs.flags, "uv"), func(v Value) bool {
			out = append(out, v)
			vm.chargeElems(1)
			return uint32(len(out)) == lim
		})
		return vm.newArrayValue(out)
	}
	ctor := vm.speciesConstructor(rx, objectValue(vm.realm.Intrinsic("RegExp")))
	flags := vm.regexpFlagsOf(rx)
	unicode := strings.ContainsAny(flags, "uv")
	newFlags := flags
	if !strings.Contains(flags, "y") {
		newFlags += "y"
	}
	splitter := vm.construct(ctor, nil, objectValue(rx), vm.String(newFlags)).obj()
	lim := splitLimit(vm, c.Arg(1))
	var out []Value
	if lim == 0 {
		return vm.newArrayValue(out)
	}
	size := s.Len()
	if size == 0 {
		if vm.regexpExec(splitter, s).IsNull() {
			out = append(out, stringValue(s))
		}
		return vm.newArrayValue(out)
	}
	push := func(v Value) bool {
		out = append(out, v)
		vm.chargeElems(1)
		return uint32(len(out)) == lim
	}
	if rs := regexpOf(splitter); rs != nil && SameValue(ctor, objectValue(vm.realm.Intrinsic("RegExp"))) &&
		SameValue(vm.getProp(splitter, strKey("exec")), objectValue(vm.realm.Intrinsic("RegExp.prototype.exec"))) {
		vm.splitSearching(rs, s, unicode, push)
		return vm.newArrayValue(out)
	}
	p, q := 0, 0
	for q < size {
		vm.setLastIndex(splitter, int64(q))
		z := vm.regexpExec(splitter, s)
		if z.IsNull() {
			q = int(advanceStringIndex(s, int64(q), unicode))
			continue
		}
		e := int(min(vm.toLength(vm.getProp(splitter, keyLastIndex)), int64(size)))
		if e == p {
			q = int(advanceStringIndex(s, int64(q), unicode))
			continue
		}
		if push(stringValue(s.substring(p, q))) {
			return vm.newArrayValue(out)
		}
		p = e
		nCaps := max(vm.lengthOfArrayLike(z.obj())-1, 0)
		for i := int64(1); i <= nCaps; i++ {
			if push(vm.getIndex(z.obj(), i)) {
				return vm.newArrayValue(out)
			}
		}
		q = p
	}
	push(stringValue(s.substring(p, size)))
	return vm.newArrayValue(out)
}

// splitCtorAt is where RegExp.prototype held constructor when last looked up (see peekAt).
var splitCtorAt atomic.Int32

// plainSplitter returns the state of rx when RegExp.prototype[Symbol.split] may split with it
// directly: constructing the splitter (SpeciesConstructor, IsRegExp, the flags, the new
// object's prototype) and its exec would run only built-ins, the splitter's flags are rx's
// own and its exec the built-in one.
func (vm *VM) plainSplitter(rx *Object) *regexpSlots {
	rs := regexpOf(rx)
	if rs == nil {
		return nil
	}
	if _, nf := plainRegExpSymbolMethod(rx, symMatch); nf == nil || !builtinFlagsGetters(rx) || !vm.hasBuiltinExec(rx) {
		return nil
	}
	proto := rx.proto
	p := peekAt(&proto.props, keyConstructor, &splitCtorAt)
	if p == nil || p.isAccessor() || p.value.kind != KindObject {
		return nil
	}
	ctor := proto.dataValue(p.value).obj()
	if nf, ok := ctor.slots.(*nativeFunction); !ok || nf.name != "RegExp" {
		return nil
	}
	if !isBuiltinGetter(ctor.props.peek(symKey(symSpecies)), "get RegExp[Symbol.species]") {
		return nil
	}
	pp := ctor.props.peek(keyPrototype)
	if pp == nil || pp.isAccessor() || pp.value.kind != KindObject || ctor.dataValue(pp.value).obj() != proto {
		return nil
	}
	return rs
}

// hasDollar reports whether a replacement template contains '$' (otherwise it is literal).
func hasDollar(t *jsString) bool {
	if f := t.flat(); f.isASCII {
		return strings.IndexByte(f.ascii, '$') >= 0
	}
	for _, c := range t.flat().flatUnits() {
		if c == '$' {
			return true
		}
	}
	return false
}

// splitSearching is the loop of RegExp.prototype[Symbol.split] for a splitter that is a
// plain RegExp with the built-in exec, where nothing can observe its lastIndex: instead of
// a sticky match attempt at every position it searches for the next match, which finds the
// same matches (the leftmost position where the sticky form would match) in one pass.
func (vm *VM) splitSearching(rs *regexpSlots, s *jsString, unicode bool, push func(Value) bool) {
	fl := rs.re.Flags()
	fl.Sticky = false
	re, err := jsregexp.Compile(rs.source.units(), fl)
	if err != nil {
		vm.throwSyntaxError("%s", err.Error())
	}
	vm.splitWith(&regexpSlots{source: rs.source, re: re}, s, unicode, push)
}

// splitWith is the loop of splitSearching with search, an expression without the y flag.
func (vm *VM) splitWith(search *regexpSlots, s *jsString, unicode bool, push func(Value) bool) {
	size := s.Len()
	p, q := 0, 0
	for q < size {
		m := vm.match(search, s, q)
		if m == nil || m.Start >= size {
			break
		}
		q = m.Start
		e := min(m.End, size)
		if e == p {
			q = int(advanceStringIndex(s, int64(q), unicode))
			continue
		}
		if push(stringValue(s.substring(p, q))) {
			return
		}
		p = e
		for _, g := range m.Groups {
			v := undefinedValue
			if g[0] >= 0 {
				v = stringValue(s.substring(g[0], g[1]))
			}
			if push(v) {
				return
			}
		}
		q = p
	}
	push(stringValue(s.substring(p, size)))
}

// splitLimit is @@split's limit argument l: ToUint32, or 2³² − 1 when undefined.
func splitLimit(vm *VM, l Value) uint32 {
	if l.IsUndefined() {
		return math.MaxUint32
	}
	return vm.toUint32(l)
}
