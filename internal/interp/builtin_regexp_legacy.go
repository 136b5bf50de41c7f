package interp

// The legacy static properties of RegExp, as V8 has them: RegExp.$1 … $9, input ($_),
// lastMatch ($&), lastParen ($+), leftContext ($`) and rightContext ($'), read from the last
// successful match of a built-in RegExp (exec, test, match, replace, split, …). Older
// libraries (showdown, for one) read them after a replace. The last match is part of the
// execution state, so it survives snapshots.

// regexpLegacy is the last successful match: its input and the start and end of the match,
// then of groups 1 to 9 (-1 for a group that did not take part). hasGroups counts the
// pattern's groups, for lastParen.
type regexpLegacy struct {
	input     *jsString
	caps      []int32
	numGroups int
}

// recordLegacyMatch remembers a successful match of s.
func (vm *VM) recordLegacyMatch(s *jsString, start, end int, groups [][2]int) {
	l := &vm.exec.legacy
	l.input = s
	l.caps = append(l.caps[:0], int32(start), int32(end))
	for i, g := range groups {
		if i == 9 {
			break
		}
		l.caps = append(l.caps, int32(g[0]), int32(g[1]))
	}
	l.numGroups = len(groups)
}

// legacyPart is the text of capture i (0: the whole match), "" when absent.
func (l *regexpLegacy) part(i int) *jsString {
	if l.input == nil || 2*i+1 >= len(l.caps) || l.caps[2*i] < 0 {
		return emptyString
	}
	return l.input.substring(int(l.caps[2*i]), int(l.caps[2*i+1]))
}

func setupRegExpLegacy(r *Realm, ctor *Object) {
	noop := func(vm *VM, c NativeCall) Value { return undefinedValue }
	getInput := func(vm *VM, c NativeCall) Value {
		if in := vm.exec.legacy.input; in != nil {
			return stringValue(in)
		}
		return stringValue(emptyString)
	}
	setInput := func(vm *VM, c NativeCall) Value {
		vm.exec.legacy.input = vm.toString(c.Arg(0))
		return undefinedValue
	}
	lastMatch := func(vm *VM, c NativeCall) Value { return stringValue(vm.exec.legacy.part(0)) }
	lastParen := func(vm *VM, c NativeCall) Value {
		l := &vm.exec.legacy
		if l.numGroups == 0 || l.numGroups > 9 {
			return stringValue(emptyString)
		}
		return stringValue(l.part(l.numGroups))
	}
	leftContext := func(vm *VM, c NativeCall) Value {
		l := &vm.exec.legacy
		if l.input == nil || len(l.caps) < 2 {
			return stringValue(emptyString)
		}
		return stringValue(l.input.substring(0, int(l.caps[0])))
	}
	rightContext := func(vm *VM, c NativeCall) Value {
		l := &vm.exec.legacy
		if l.input == nil || len(l.caps) < 2 {
			return stringValue(emptyString)
		}
		return stringValue(l.input.substring(int(l.caps[1]), l.input.Len()))
	}
	for _, p := range []struct {
		names    []string
		get, set NativeFunc
	}{
		{[]string{"input", "$_"}, getInput, setInput},
		{[]string{"lastMatch", "$&"}, lastMatch, noop},
		{[]string{"lastParen", "$+"}, lastParen, noop},
		{[]string{"leftContext", "$`"}, leftContext, noop},
		{[]string{"rightContext", "$'"}, rightContext, noop},
	} {
		for _, name := range p.names {
			r.accessor(ctor, strKey(name), p.get, p.set)
		}
	}
	for i := 1; i <= 9; i++ {
		i := i
		r.accessor(ctor, strKey("$"+string(rune('0'+i))), func(vm *VM, c NativeCall) Value {
			return stringValue(vm.exec.legacy.part(i))
		}, noop)
	}
}
