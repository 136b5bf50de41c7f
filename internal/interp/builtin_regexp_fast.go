package interp

import (
	"sync/atomic"

	"github.com/codemode/codemode/internal/interp/jsregexp"
)

// Fast paths of RegExp.prototype.test, [Symbol.match] and [Symbol.replace] for a RegExp whose
// exec is the built-in one. There RegExpExec runs RegExpBuiltinExec, whose result arrays no
// program code can see before the method returns, so the loops below match directly and keep
// positions instead of building an array per match. Everything a program can observe stays
// as the generic path does it: the reads of flags and exec, lastIndex's value after every
// match (a match can throw: a timeout ends the run, a backtracking overflow is a RangeError),
// the arguments of a replacement function and the order of calls.

var keyExec = strKey("exec")

// hasBuiltinExec reports whether Get(o, "exec") is %RegExp.prototype.exec% and finding it runs
// no code: o has no own exec and its prototype holds exec as a data property.
func (vm *VM) hasBuiltinExec(o *Object) bool {
	proto := o.proto
	if proto == nil || o.props.has(keyExec) {
		return false
	}
	p := proto.props.peek(keyExec)
	return p != nil && !p.isAccessor() && p.value.kind == KindObject &&
		proto.dataValue(p.value).obj() == vm.regexpExecIntrinsic()
}

// regexpExecIntrinsic returns the realm's RegExp.prototype.exec, looked up once per realm.
func (vm *VM) regexpExecIntrinsic() *Object {
	if c := &vm.regexpExecFn; c.realm != vm.realm {
		c.realm, c.obj = vm.realm, vm.realm.Intrinsic("RegExp.prototype.exec")
	}
	return vm.regexpExecFn.obj
}

// regexpProtoIntrinsic returns the realm's RegExp.prototype, looked up once per realm.
func (vm *VM) regexpProtoIntrinsic() *Object {
	if c := &vm.regexpProto; c.realm != vm.realm {
		c.realm, c.obj = vm.realm, vm.realm.Intrinsic("RegExp.prototype")
	}
	return vm.regexpProto.obj
}

// realmIntrinsic is an intrinsic of realm, kept by the VM to spare looking it up by name.
type realmIntrinsic struct {
	realm *Realm
	obj   *Object
}

// regexpBuiltinMatch is RegExpBuiltinExec without the result array: it honours and updates
// lastIndex as RegExpBuiltinExec does and returns the match (owned by the matcher of rs) or
// nil, and the state of o it ran: reading lastIndex can run code (valueOf) that recompiles
// o, and the expression is the one o has after that, as the specification reads it.
func (vm *VM) regexpBuiltinMatch(o *Object, s *jsString) (*jsregexp.Match, *regexpSlots) {
	li := vm.getLastIndex(o)
	rs := regexpOf(o)
	fl := rs.re.Flags()
	update := fl.Global || fl.Sticky
	if !update {
		li = 0
	}
	if li > int64(s.Len()) {
		if update {
			vm.putLastIndex(o, 0)
		}
		return nil, rs
	}
	m := vm.match(rs, s, int(li))
	if update {
		if m == nil {
			vm.putLastIndex(o, 0)
		} else {
			vm.putLastIndex(o, m.End)
		}
	}
	return m, rs
}

// fastRegExp returns the state of rx when its [Symbol.match] or [Symbol.replace] may take the
// fast path: a RegExp with the built-in exec whose flags string (read by the caller through
// rx.flags) agrees with its own global and unicode flags.
func (vm *VM) fastRegExp(rx *Object, global, unicode bool) *regexpSlots {
	rs := regexpOf(rx)
	if rs == nil {
		return nil
	}
	fl := rs.re.Flags()
	if fl.Global != global || (fl.Unicode || fl.UnicodeSets) != unicode || !vm.hasBuiltinExec(rx) {
		return nil
	}
	return rs
}

// matchSpans are the positions of the matches of a global search, flattened: per match its
// start and end, then start and end of each capture group (-1, -1 when it did not take part).
type matchSpans struct {
	stride int // 2 + 2 × number of groups
	pos    []int
}

func (ms *matchSpans) len() int { return len(ms.pos) / ms.stride }

// at returns match i's positions: [start, end, g1start, g1end, ...].
func (ms *matchSpans) at(i int) []int { return ms.pos[i*ms.stride : (i+1)*ms.stride] }

// globalMatches runs the loop of a global [Symbol.match] or [Symbol.replace] on a RegExp
// with the built-in exec (lastIndex already set to 0): every match from the start of s, an
// empty match moving lastIndex on by one character (a code point in unicode mode). It
// leaves lastIndex at 0 as the failing last exec does. keep reports whether capture
// positions are wanted.
func (vm *VM) globalMatches(rx *Object, rs *regexpSlots, s *jsString, unicode, keep bool) *matchSpans {
	ms := &matchSpans{stride: 2}
	if keep {
		ms.stride += 2 * rs.re.NumGroups()
	}
	for {
		m, _ := vm.regexpBuiltinMatch(rx, s)
		if m == nil {
			return ms
		}
		ms.pos = append(ms.pos, m.Start, m.End)
		if keep {
			for _, g := range m.Groups {
				ms.pos = append(ms.pos, g[0], g[1])
			}
		}
		vm.allocated += int64(ms.stride) * 8
		if m.End == m.Start {
			vm.putLastIndex(rx, int(advanceStringIndex(s, int64(m.End), unicode)))
		}
	}
}

// regexpMatchFast is the global loop of RegExp.prototype[Symbol.match] on rs: the array of
// matched substrings, or null.
func (vm *VM) regexpMatchFast(rx *Object, rs *regexpSlots, s *jsString, unicode bool) Value {
	vm.setLastIndex(rx, 0)
	ms := vm.globalMatches(rx, rs, s, unicode, false)
	if ms.len() == 0 {
		return nullValue
	}
	found := make([]Value, ms.len())
	for i := range found {
		p := ms.at(i)
		found[i] = stringValue(s.substring(p[0], p[1]))
	}
	vm.chargeElems(len(found))
	return vm.newArrayValue(found)
}

// regexpReplaceFast is the global loop of RegExp.prototype[Symbol.replace] on rs, with
// lastIndex already set to 0: replaceValue is a function, or else template is the
// replacement template.
func (vm *VM) regexpReplaceFast(rx *Object, rs *regexpSlots, s *jsString, unicode bool, replaceValue Value, template *jsString) Value {
	literal := template != nil && !hasDollar(template)
	ms := vm.globalMatches(rx, rs, s, unicode, !literal)
	return vm.replaceSpans(rs, s, ms, replaceValue, template)
}

// regexpReplaceOnce is RegExp.prototype[Symbol.replace] for a RegExp without the g flag
// whose exec is the built-in one: a single RegExpBuiltinExec, then the replacement of what
// it matched, without the result array no program code sees.
func (vm *VM) regexpReplaceOnce(rx *Object, s *jsString, replaceValue Value, template *jsString) Value {
	m, rs := vm.regexpBuiltinMatch(rx, s)
	if m == nil {
		return stringValue(s)
	}
	// the match belongs to the matcher, which a replacement function can run again
	ms := &matchSpans{stride: 2 + 2*len(m.Groups)}
	ms.pos = make([]int, 0, ms.stride)
	ms.pos = append(ms.pos, m.Start, m.End)
	for _, g := range m.Groups {
		ms.pos = append(ms.pos, g[0], g[1])
	}
	return vm.replaceSpans(rs, s, ms, replaceValue, template)
}

// replaceSpans builds the result of replacing the matches ms of rs in s: replaceValue is a
// function, or else template is the replacement template (ms has capture positions unless
// the template has no '$').
func (vm *VM) replaceSpans(rs *regexpSlots, s *jsString, ms *matchSpans, replaceValue Value, template *jsString) Value {
	functional := template == nil
	literal := !functional && !hasDollar(template)
	if ms.len() == 0 {
		return stringValue(s)
	}
	keys := rs.groupKeys()
	var sUnits, tUnits, out []uint16
	var named func([]uint16) []uint16
	var captures [][]uint16
	if !functional && !literal {
		sUnits, tUnits = rs.lastInput.Units(), template.units()
		captures = make([][]uint16, rs.re.NumGroups())
		if keys.named {
			named = rs.namedCapture(captures)
		}
	}
	var b stringBuilder
	next := 0
	for i := range ms.len() {
		p := ms.at(i)
		pos, end := p[0], p[1]
		var repl *jsString
		switch {
		case literal:
			repl = template
		case functional:
			repl = vm.toString(vm.Call(replaceValue, undefinedValue, vm.replaceArgs(rs, keys, s, p)...))
		default:
			for g := range captures {
				captures[g] = nil
				if st := p[2+2*g]; st >= 0 {
					captures[g] = sUnits[st:p[3+2*g]]
				}
			}
			out = jsregexp.Substitute(out[:0], sUnits[pos:end], sUnits, pos, captures, named, tUnits)
			vm.checkStringLength(int64(len(out)))
			vm.allocated += int64(len(out)) * 2
		}
		b.writeString(s.substring(next, pos))
		if repl != nil {
			b.writeString(repl)
		} else {
			for _, c := range out {
				b.writeUnit(c)
			}
		}
		vm.checkStringLength(int64(b.len()))
		next = end
	}
	if next < s.Len() {
		b.writeString(s.substring(next, s.Len()))
		vm.checkStringLength(int64(b.len()))
	}
	vm.allocated += int64(b.len()) * 2
	return stringValue(b.string())
}

// replaceArgs are the arguments of a replacement function for match p (see matchSpans): the
// match, the captures, the position, the string and, with named groups, the groups object.
func (vm *VM) replaceArgs(rs *regexpSlots, keys *regexpGroupKeys, s *jsString, p []int) []Value {
	n := rs.re.NumGroups()
	args := make([]Value, 0, n+4)
	args = append(args, stringValue(s.substring(p[0], p[1])))
	for g := range n {
		v := undefinedValue
		if st := p[2+2*g]; st >= 0 {
			v = stringValue(s.substring(st, p[3+2*g]))
		}
		args = append(args, v)
	}
	args = append(args, intValue(p[0]), stringValue(s))
	if keys.named {
		args = append(args, objectValue(vm.groupsObject(keys, args[1:1+n])))
	}
	return args
}

// namedCapture resolves "$<name>" in a template against the current captures (filled by
// the caller per match) as the groups object of the match would: the text of the group of
// that name, nil for an undefined group or a name no group has. A name used by several
// groups (in different alternatives) has the text of the one that participated.
func (rs *regexpSlots) namedCapture(captures [][]uint16) func([]uint16) []uint16 {
	names := rs.re.GroupNames()
	return func(name []uint16) []uint16 {
		key := newUTF16(append([]uint16(nil), name...)).wtf8()
		for i, n := range names {
			if n == key && captures[i] != nil {
				return captures[i]
			}
		}
		return nil
	}
}

// regexpSymbolMethods are the stable names of the built-in RegExp.prototype symbol methods
// that String.prototype methods delegate to, with where RegExp.prototype held each when last
// looked up (see peekAt).
var regexpSymbolMethods = [...]struct {
	sym  *Symbol
	name string
	at   atomic.Int32
}{
	{sym: symMatch, name: "RegExp.prototype[Symbol.match]"},
	{sym: symMatchAll, name: "RegExp.prototype[Symbol.matchAll]"},
	{sym: symReplace, name: "RegExp.prototype[Symbol.replace]"},
	{sym: symSearch, name: "RegExp.prototype[Symbol.search]"},
	{sym: symSplit, name: "RegExp.prototype[Symbol.split]"},
}

// plainRegExpSymbolMethod returns, when Get(o, sym) finds a built-in RegExp.prototype symbol
// method without running code (o is a RegExp whose only own property is lastIndex, and its
// prototype holds the method as a data property), that function and its native state, so a
// String.prototype method can call it directly, as the generic Call would.
func plainRegExpSymbolMethod(o *Object, sym *Symbol) (*Object, *nativeFunction) {
	if o.class != ClassRegExp || len(o.props.keys) != 1 || o.props.keys[0] != keyLastIndex || o.proto == nil {
		return nil, nil
	}
	for i := range regexpSymbolMethods {
		m := &regexpSymbolMethods[i]
		if m.sym != sym {
			continue
		}
		p := peekAt(&o.proto.props, symKey(sym), &m.at)
		if p == nil || p.isAccessor() || p.value.kind != KindObject {
			return nil, nil
		}
		f := o.proto.dataValue(p.value).obj()
		if nf, ok := f.slots.(*nativeFunction); ok && nf.name == m.name {
			return f, nf
		}
		return nil, nil
	}
	return nil, nil
}
