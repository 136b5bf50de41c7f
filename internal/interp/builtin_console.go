package interp

import (
	"math"
	"regexp"
	"strconv"
	"strings"
)

// The console global: log/info/warn/error/debug/trace lines go to Config.Log (vm.logf) with
// the level name, formatted the way node's util.inspect formats them for the common cases:
// strings unquoted at top level and quoted (single quotes by preference) when nested,
// `{ a: 1, b: [ 1, 2 ] }`, line breaking past 80 columns, number arrays grouped in columns,
// depth 2 then [Object], circular references, class instance prefixes, Map/Set (through
// consoleInspector), functions, errors (their stack), boxed primitives, printf-style %s %d %i
// %f %j %o %O %c %%.

func init() { registerBuiltin("console", 60, setupConsole) }

// consoleInspector lets the internal slots of a built-in (Map, Set, Date, RegExp, Promise,
// ...) format their object for console output. format formats a nested value one level
// deeper. It returns either whole (the complete text, e.g. a Date's ISO string) or a prefix
// such as "Map(2)" and the formatted entries ("'a' => 1"), shown in braces.
type consoleInspector interface {
	consoleInspect(vm *VM, format func(Value) string) (prefix string, entries []string, whole string)
}

// functionKinder lets the slots of JavaScript functions say what kind they are, for
// console output: "Function", "AsyncFunction", "GeneratorFunction",
// "AsyncGeneratorFunction", or "class" (then extends names the parent, if any).
type functionKinder interface {
	consoleFunctionKind() (kind, extends string)
}

var consoleLevels = []struct{ method, level string }{
	{"log", "log"}, {"info", "info"}, {"warn", "warn"}, {"error", "error"}, {"debug", "debug"},
	{"trace", "trace"},
}

func setupConsole(r *Realm) {
	con := r.vm.newPlainObject()
	con.slots = &consoleState{}
	r.defineGlobal("console", objectValue(con))
	r.addIntrinsic("console", con)
	for _, l := range consoleLevels {
		level := l.level
		r.method(con, l.method, 0, consoleLevelFuncs[level])
	}
	r.method(con, "dir", 0, consoleDir)
	r.method(con, "table", 1, consoleTable)
	r.method(con, "assert", 0, consoleAssert)
	r.method(con, "count", 0, consoleCount)
	r.method(con, "countReset", 0, consoleCountReset)
	r.method(con, "group", 0, consoleGroup)
	r.method(con, "groupCollapsed", 0, consoleGroup)
	r.method(con, "groupEnd", 0, consoleGroupEnd)
}

// consoleState is the console object's internal slot: the group indentation and the
// console.count counters (in first-use order). It is part of snapshots.
type consoleState struct {
	indent int
	counts []consoleCounter
}

type consoleCounter struct {
	label string
	n     int64
}

func (s *consoleState) slotTag() string { return "console" }

func (s *consoleState) encodeSlot(e *heapEncoder) {
	e.w.beginArray()
	e.w.int(int64(s.indent))
	for _, c := range s.counts {
		e.w.string(c.label)
		e.w.int(c.n)
	}
	e.w.endArray()
}

func (s *consoleState) walkSlot(w *heapWalker) { w.add(int64(len(s.counts)) * 32) }

func (s *consoleState) cloneSlot(func(*Object) *Object) any {
	return &consoleState{indent: s.indent, counts: append([]consoleCounter(nil), s.counts...)}
}

func init() {
	registerSlotType("console", func() slotCodec { return &consoleState{} }, func(d *heapDecoder, r *jsonReader, sc slotCodec) {
		s := sc.(*consoleState)
		r.beginArray()
		r.more(true)
		s.indent = int(r.int())
		for r.more(false) {
			label := r.goString()
			r.more(false)
			s.counts = append(s.counts, consoleCounter{label: label, n: r.int()})
		}
	})
}

// consoleState returns the console state of the realm (nil if console was replaced).
func (vm *VM) consoleState() *consoleState {
	if c := vm.realm.Intrinsic("console"); c != nil {
		if s, ok := c.slots.(*consoleState); ok {
			return s
		}
	}
	return &consoleState{}
}

// emit sends one formatted console line at the current group indentation.
func (vm *VM) emit(level, text string) {
	if vm.logf == nil {
		return
	}
	if ind := vm.consoleState().indent; ind > 0 {
		pad := strings.Repeat(" ", ind)
		text = pad + strings.ReplaceAll(text, "\n", "\n"+pad)
	}
	vm.logf(level, text)
}

// consoleAssert is console.assert(cond, ...data): "Assertion failed[: data]" at level warn when falsy.
func consoleAssert(vm *VM, c NativeCall) Value {
	if ToBoolean(c.Arg(0)) {
		return undefinedValue
	}
	text := "Assertion failed"
	if len(c.Args) > 1 {
		text += ": " + vm.consoleFormat(c.Args[1:])
	}
	vm.emit("warn", text)
	return undefinedValue
}

// countLabel reads console.count's label argument ("default" when absent).
func (vm *VM) countLabel(c NativeCall) string {
	if c.Arg(0).IsUndefined() {
		return "default"
	}
	return vm.ToGoString(c.Arg(0))
}

// consoleCount is console.count(label): "label: n".
func consoleCount(vm *VM, c NativeCall) Value {
	label := vm.countLabel(c)
	s := vm.consoleState()
	i := 0
	for i < len(s.counts) && s.counts[i].label != label {
		i++
	}
	if i == len(s.counts) {
		s.counts = append(s.counts, consoleCounter{label: label})
	}
	s.counts[i].n++
	vm.emit("log", label+": "+strconv.FormatInt(s.counts[i].n, 10))
	return undefinedValue
}

// consoleCountReset is console.countReset(label).
func consoleCountReset(vm *VM, c NativeCall) Value {
	label := vm.countLabel(c)
	s := vm.consoleState()
	for i := range s.counts {
		if s.counts[i].label == label {
			s.counts[i].n = 0
		}
	}
	return undefinedValue
}

// consoleGroup is console.group(...label): prints the label, then indents by two spaces.
func consoleGroup(vm *VM, c NativeCall) Value {
	if len(c.Args) > 0 {
		vm.emit("log", vm.consoleFormat(c.Args))
	}
	vm.consoleState().indent += 2
	return undefinedValue
}

// consoleGroupEnd is console.groupEnd().
func consoleGroupEnd(vm *VM, c NativeCall) Value {
	if s := vm.consoleState(); s.indent >= 2 {
		s.indent -= 2
	}
	return undefinedValue
}

// consoleLevelFuncs are the natives of the console methods, one per level.
var consoleLevelFuncs = map[string]NativeFunc{}

func init() {
	for _, l := range consoleLevels {
		level := l.level
		consoleLevelFuncs[level] = func(vm *VM, c NativeCall) Value {
			if vm.logf != nil {
				vm.emit(level, vm.consoleFormat(c.Args))
			}
			return undefinedValue
		}
	}
}

// consoleFormat formats console arguments like node's util.format.
func (vm *VM) consoleFormat(args []Value) string {
	var b strings.Builder
	rest := args
	if len(args) > 0 && args[0].kind == KindString {
		f := args[0].str().String()
		if strings.IndexByte(f, '%') >= 0 && len(args) > 1 {
			rest = args[1:]
			for i := 0; i < len(f); i++ {
				if f[i] != '%' || i+1 >= len(f) {
					b.WriteByte(f[i])
					continue
				}
				verb := f[i+1]
				if verb == '%' {
					b.WriteByte('%')
					i++
					continue
				}
				if !strings.ContainsRune("sdifjoOc", rune(verb)) {
					b.WriteByte('%')
					continue
				}
				i++
				if len(rest) == 0 {
					b.WriteByte('%')
					b.WriteByte(verb)
					continue
				}
				a := rest[0]
				rest = rest[1:]
				b.WriteString(vm.formatVerb(verb, a))
			}
		} else {
			b.WriteString(f)
			rest = args[1:]
		}
		for _, a := range rest {
			b.WriteByte(' ')
			b.WriteString(vm.inspectTop(a))
		}
		return b.String()
	}
	for i, a := range rest {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(vm.inspectTop(a))
	}
	return b.String()
}

// formatVerb formats one %-argument.
func (vm *VM) formatVerb(verb byte, a Value) string {
	switch verb {
	case 's':
		switch a.kind {
		case KindString:
			return a.str().String()
		case KindNumber:
			return formatConsoleNumber(a.num)
		case KindObject:
			return vm.inspect(a, 0)
		case KindSymbol:
			return a.sym().descriptiveString()
		case KindBigInt:
			return vm.ToGoString(a) + "n"
		}
		return vm.ToGoString(a)
	case 'd', 'i':
		if a.kind == KindObject {
			return "NaN"
		}
		if a.kind == KindBigInt {
			return vm.ToGoString(a) + "n"
		}
		n := vm.toNumber(a)
		if verb == 'i' {
			n = math.Trunc(n)
		}
		return formatConsoleNumber(n)
	case 'f':
		if a.kind == KindSymbol {
			return "NaN"
		}
		return formatConsoleNumber(vm.toNumber(vm.toStringValue(a)))
	case 'j':
		if j := vm.realm.globalProp(strKey("JSON")); j != nil && j.value.kind == KindObject {
			r := vm.invoke(j.value, strKey("stringify"), a)
			if r.IsUndefined() {
				return "undefined"
			}
			return vm.ToGoString(r)
		}
		return vm.inspect(a, 2)
	case 'o':
		// util.inspect with showHidden and depth 4, as node formats %o.
		in := &inspector{vm: vm, depth: 4, circular: map[*Object]int{}, showHidden: true}
		return in.format(a, 0, true)
	case 'O':
		return vm.inspect(a, 2)
	case 'c':
		return ""
	}
	return ""
}

// formatConsoleNumber prints a number as node does (-0 keeps its sign).
func formatConsoleNumber(f float64) string {
	if f == 0 && math.Signbit(f) {
		return "-0"
	}
	return numberToString(f)
}

// inspectTop formats a top-level console argument: strings as they are, others inspected.
func (vm *VM) inspectTop(v Value) string {
	if v.kind == KindString {
		return v.str().String()
	}
	return vm.inspect(v, 2)
}

// inspect formats any value like util.inspect(v, {depth}).
func (vm *VM) inspect(v Value, depth int) string {
	in := &inspector{vm: vm, depth: depth, circular: map[*Object]int{}}
	return in.format(v, 0, true)
}

// inspector holds the state of one util.inspect-like formatting.
type inspector struct {
	vm           *VM
	depth        int
	indent       int
	currentDepth int
	seen         []*Object
	circular     map[*Object]int
	showHidden   bool // %o: arrays also show [length]
	maxArray     int  // array elements shown before "... more items"; 0: inspectMaxArray, <0: none
	breakLength  int  // line width past which entries go on lines of their own; 0: inspectBreakLength
}

func (in *inspector) maxArrayLength() int {
	switch {
	case in.maxArray > 0:
		return in.maxArray
	case in.maxArray < 0:
		return 0
	}
	return inspectMaxArray
}

func (in *inspector) lineWidth() int {
	if in.breakLength > 0 {
		return in.breakLength
	}
	return inspectBreakLength
}

const (
	inspectBreakLength = 80
	inspectMaxArray    = 100
	inspectCompact     = 3
)

var identRe = regexp.MustCompile(`^[a-zA-Z_][a-zA-Z_0-9]*$`)

// quoteJS quotes a string the way util.inspect does: single quotes unless the string
// contains them (then double quotes, then backticks).
func quoteJS(s string) string {
	q := byte('\'')
	if strings.IndexByte(s, '\'') >= 0 {
		if strings.IndexByte(s, '"') < 0 {
			q = '"'
		} else if strings.IndexByte(s, '`') < 0 && !strings.Contains(s, "${") {
			q = '`'
		}
	}
	var b strings.Builder
	b.WriteByte(q)
	for _, r := range s {
		switch {
		case r == rune(q) || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\b':
			b.WriteString(`\b`)
		case r == '\f':
			b.WriteString(`\f`)
		case r == '\v':
			b.WriteString(`\v`)
		case r < 0x20 || r == 0x7F:
			b.WriteString(`\x`)
			h := strconv.FormatInt(int64(r), 16)
			if len(h) < 2 {
				b.WriteByte('0')
			}
			b.WriteString(strings.ToUpper(h))
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte(q)
	return b.String()
}

// format formats v at nesting level level.
func (in *inspector) format(v Value, level int, top bool) string {
	switch v.kind {
	case KindUndefined:
		return "undefined"
	case KindNull:
		return "null"
	case KindBool, KindNumber:
		if v.kind == KindNumber {
			return formatConsoleNumber(v.num)
		}
		return v.String()
	case KindString:
		return quoteJS(v.str().String())
	case KindSymbol:
		return v.sym().descriptiveString()
	case KindBigInt:
		return in.vm.bigIntToString(v.bigint(), 10).String() + "n"
	}
	o := v.obj()
	for o.class == ClassProxy { // node shows the target of a proxy
		s := o.slots.(*proxySlots)
		if s.target == nil {
			return "<Revoked Proxy>"
		}
		o = s.target
	}
	for _, s := range in.seen {
		if s == o {
			idx, ok := in.circular[o]
			if !ok {
				idx = len(in.circular) + 1
				in.circular[o] = idx
			}
			return "[Circular *" + strconv.Itoa(idx) + "]"
		}
	}
	out := in.formatObject(o, level)
	if idx, ok := in.circular[o]; ok {
		out = "<ref *" + strconv.Itoa(idx) + "> " + out
	}
	return out
}

// constructorName finds the name of the constructor of o's prototype chain, without running
// getters; "" when there is none (null-prototype objects).
func (in *inspector) constructorName(o *Object) string {
	for p := o; p != nil; p = p.proto {
		if c, ok := p.getOwn(keyConstructor); ok && !c.isAccessor() {
			if co := c.value.asObject(); co != nil && co.isCallable() && inspectInstanceOf(o, co) {
				if n := lookupDataProperty(co, keyName); n.kind == KindString && n.str().Len() > 0 {
					return n.str().String()
				}
			}
		}
	}
	return ""
}

// inspectInstanceOf is node's isInstanceof(o, ctor) in getConstructorName, without running
// getters: ctor's prototype is on o's prototype chain (GeneratorFunction.prototype is not an
// instance of GeneratorFunction, so node names it after Function). A constructor whose
// prototype is not a plain data property (a proxy, a bound function) counts as a match.
func inspectInstanceOf(o, ctor *Object) bool {
	if ctor.class == ClassProxy {
		return true
	}
	pv, ok := ctor.getOwn(keyPrototype)
	if !ok || pv.isAccessor() {
		return true
	}
	proto := pv.value.asObject()
	if proto == nil {
		return false
	}
	for p := o.proto; p != nil; p = p.proto {
		if p == proto {
			return true
		}
	}
	return false
}

// prefix builds "Name " / "Name(n) " / "[Object: null prototype] " for a braced object.
func (in *inspector) prefix(o *Object, fallback, size string) string {
	name := in.constructorName(o)
	if name == "" {
		return "[" + fallback + size + ": null prototype] "
	}
	if name == fallback && size == "" {
		return ""
	}
	return name + size + " "
}

// formatObject formats an object (not yet seen on the current path).
func (in *inspector) formatObject(o *Object, level int) string {
	keys := in.ownEnumerableKeys(o)
	var (
		braces    = [2]string{"{", "}"}
		base      string
		entries   []string
		isArray   bool
		arrayVals []Value
	)
	switch {
	case o.class == ClassArray:
		isArray = true
		pre := ""
		if name := in.constructorName(o); name != "Array" {
			pre = in.prefix(o, "Array", "("+strconv.Itoa(int(o.length))+")")
		}
		braces = [2]string{pre + "[", "]"}
		if o.length == 0 && len(keys) == 0 {
			return braces[0] + "]"
		}
	case o.class == ClassTypedArray:
		isArray = true
		t := o.slots.(*typedArray)
		n, _ := t.length()
		name := t.elem().name
		pre := in.constructorNameOr(o, name) + "(" + strconv.Itoa(n) + ") "
		if cn := in.constructorNameOr(o, name); cn != name {
			pre += "[" + name + "] "
		}
		braces = [2]string{pre + "[", "]"}
		if n == 0 && len(keys) == 0 {
			return braces[0] + "]"
		}
	case o.isCallable():
		base = in.functionBase(o)
		if len(keys) == 0 {
			return base
		}
	case o.class == ClassError:
		base = in.errorBase(o)
		keys = slicesDeleteKeys(keys, keyStack, keyMessage)
		if p, ok := o.getOwn(keyCause); ok && !p.enumerable() {
			keys = append(keys, keyCause)
		}
		if len(keys) == 0 {
			return base
		}
	case o.class == ClassBoolean || o.class == ClassNumber || o.class == ClassString || o.class == ClassSymbol ||
		o.class == ClassBigInt:
		pv := o.slots.(Value)
		typ := o.class.String()
		base = "[" + typ + ": " + in.format(pv, level, false) + "]"
		if o.class == ClassString {
			keys = keys[:0:0]
			for _, k := range in.ownEnumerableKeys(o) {
				if _, isIdx := k.arrayIndex(); !isIdx || k == keyLength {
					keys = append(keys, k)
				}
			}
		}
		if len(keys) == 0 {
			return base
		}
	default:
		if text, ok := in.inspectBuiltin(o, level); ok {
			return text
		}
		if ci, ok := o.slots.(consoleInspector); ok {
			if level > in.depth {
				return "[" + in.constructorNameOr(o, o.class.String()) + "]"
			}
			in.seen = append(in.seen, o)
			in.indent += 2
			pre, ents, whole := ci.consoleInspect(in.vm, func(v Value) string { return in.format(v, level+1, false) })
			in.indent -= 2
			in.seen = in.seen[:len(in.seen)-1]
			if whole != "" {
				return whole
			}
			braces[0] = pre + " {"
			entries = ents
			break
		}
		pre := in.prefix(o, "Object", "")
		// node adds a Symbol.toStringTag that differs from the constructor's name and is not
		// an own enumerable property: "Object [Generator] {}", "Function [GeneratorFunction] {}"
		if tag := lookupDataProperty(o, symKey(symToStringTag)); tag.kind == KindString && tag.str().Len() > 0 {
			t := tag.str().String()
			own, isOwn := o.getOwn(symKey(symToStringTag))
			if name := in.constructorName(o); t != name && (!isOwn || !own.enumerable()) {
				if name == "" {
					pre = "[Object: null prototype] [" + t + "] "
				} else {
					pre = name + " [" + t + "] "
				}
			}
		}
		braces[0] = pre + "{"
		if len(keys) == 0 {
			return braces[0] + "}"
		}
	}
	if level > in.depth {
		if isArray {
			return "[Array]"
		}
		return "[" + in.constructorNameOr(o, "Object") + "]"
	}
	in.seen = append(in.seen, o)
	in.currentDepth = level
	if isArray {
		entries, arrayVals = in.arrayEntries(o, level)
		keys = slicesDeleteIndexKeys(keys)
	}
	for _, k := range keys {
		entries = append(entries, in.property(o, k, level))
	}
	in.seen = in.seen[:len(in.seen)-1]
	return in.reduce(entries, base, braces, isArray, level, arrayVals)
}

// constructorNameOr returns the constructor name or fallback.
func (in *inspector) constructorNameOr(o *Object, fallback string) string {
	if n := in.constructorName(o); n != "" {
		return n
	}
	return fallback
}

// ownEnumerableKeys lists own enumerable keys (strings then symbols).
func (in *inspector) ownEnumerableKeys(o *Object) []PropertyKey {
	all := in.vm.ownPropertyKeys(o)
	out := all[:0]
	for _, k := range all {
		if p, ok := o.getOwn(k); ok && p.enumerable() {
			out = append(out, k)
		}
	}
	return out
}

func slicesDeleteKeys(keys []PropertyKey, drop ...PropertyKey) []PropertyKey {
	out := keys[:0]
outer:
	for _, k := range keys {
		for _, d := range drop {
			if k == d {
				continue outer
			}
		}
		out = append(out, k)
	}
	return out
}

func slicesDeleteIndexKeys(keys []PropertyKey) []PropertyKey {
	out := keys[:0]
	for _, k := range keys {
		if _, ok := k.arrayIndex(); !ok {
			out = append(out, k)
		}
	}
	return out
}

// arrayEntries formats the elements of an array (holes as "<n empty items>", at most 100).
func (in *inspector) arrayEntries(o *Object, level int) ([]string, []Value) {
	var out []string
	var vals []Value
	n := int64(o.length)
	if o.class == ClassTypedArray {
		l, _ := o.slots.(*typedArray).length()
		n = int64(l)
	}
	holes := 0
	flush := func() {
		if holes > 0 {
			s := "s"
			if holes == 1 {
				s = ""
			}
			out = append(out, "<"+strconv.Itoa(holes)+" empty item"+s+">")
			holes = 0
		}
	}
	shown := 0
	var i int64
	for i = 0; i < n && shown < in.maxArrayLength(); i++ {
		p, ok := o.getOwn(indexKey(uint32(i)))
		if !ok {
			holes++
			continue
		}
		flush()
		shown++
		in.indent += 2
		if p.isAccessor() {
			out = append(out, accessorLabel(&p))
		} else {
			out = append(out, in.format(p.value, level+1, false))
			vals = append(vals, p.value)
		}
		in.indent -= 2
	}
	flush()
	if i < n {
		rem := n - i
		s := "s"
		if rem == 1 {
			s = ""
		}
		out = append(out, "... "+strconv.FormatInt(rem, 10)+" more item"+s)
	}
	if in.showHidden {
		out = append(out, "[length]: "+strconv.FormatInt(n, 10))
	}
	return out, vals
}

func accessorLabel(p *Property) string {
	switch {
	case p.getter() != nil && p.setter() != nil:
		return "[Getter/Setter]"
	case p.getter() != nil:
		return "[Getter]"
	}
	return "[Setter]"
}

// property formats "key: value" for an own property.
func (in *inspector) property(o *Object, k PropertyKey, level int) string {
	p, _ := o.getOwn(k)
	var name string
	switch {
	case k == keyCause && !p.enumerable() && o.class == ClassError:
		name = "[cause]"
	case k.sym != nil:
		name = "[" + k.sym.descriptiveString() + "]"
	case identRe.MatchString(k.name):
		name = k.name
	default:
		name = quoteJS(newStringFromGo(k.name).String())
	}
	if p.isAccessor() {
		return name + ": " + accessorLabel(&p)
	}
	in.indent += 2
	s := in.format(p.value, level+1, false)
	in.indent -= 2
	return name + ": " + s
}

// functionBase formats a function: [Function: f], [class A extends B], [AsyncFunction: g].
func (in *inspector) functionBase(o *Object) string {
	kind, extends := "Function", ""
	if fk, ok := o.slots.(functionKinder); ok {
		kind, extends = fk.consoleFunctionKind()
	}
	name := ""
	if n := lookupDataProperty(o, keyName); n.kind == KindString {
		name = n.str().String()
	}
	if kind == "class" {
		s := "[class " + name
		if name == "" {
			s = "[class (anonymous)"
		}
		if extends != "" {
			s += " extends " + extends
		}
		return s + "]"
	}
	if name == "" {
		return "[" + kind + " (anonymous)]"
	}
	return "[" + kind + ": " + name + "]"
}

// errorBase formats an error by its stack (or "Name: message" when there is none), with
// node's improvement of the first line when the constructor differs from the name
// ("MyErr [Error]: x").
func (in *inspector) errorBase(o *Object) string {
	text := errorStackString(o).String()
	if s := lookupDataProperty(o, keyStack); s.kind == KindString {
		text = s.str().String()
	}
	name := "Error"
	if n := lookupDataProperty(o, keyName); n.kind == KindString {
		name = n.str().String()
	}
	ctor := in.constructorName(o)
	if ctor != "" && strings.HasSuffix(name, "Error") && strings.HasPrefix(text, name) &&
		(len(text) == len(name) || text[len(name)] == ':' || text[len(name)] == '\n') && ctor != name {
		if strings.Contains(ctor, name) {
			text = ctor + text[len(name):]
		} else {
			text = ctor + " [" + name + "]" + text[len(name):]
		}
	}
	if !strings.Contains(text, "\n    at") {
		text = "[" + text + "]"
	}
	if in.indent > 0 {
		text = strings.ReplaceAll(text, "\n", "\n"+strings.Repeat(" ", in.indent))
	}
	return text
}

// reduce joins entries on one line when they fit, or one per line (arrays grouped in
// columns), like node's reduceToSingleString.
func (in *inspector) reduce(output []string, base string, braces [2]string, isArray bool, level int, vals []Value) string {
	entries := len(output)
	if isArray && entries > 6 {
		output = in.groupArrayElements(output, vals)
	}
	if in.currentDepth-level < inspectCompact && entries == len(output) {
		start := len(output) + in.indent + len(braces[0]) + len(base) + 10
		if in.isBelowBreakLength(output, start, base) {
			joined := strings.Join(output, ", ")
			if !strings.Contains(joined, "\n") {
				pre := ""
				if base != "" {
					pre = base + " "
				}
				return pre + braces[0] + " " + joined + " " + braces[1]
			}
		}
	}
	ind := "\n" + strings.Repeat(" ", in.indent)
	pre := ""
	if base != "" {
		pre = base + " "
	}
	return pre + braces[0] + ind + "  " + strings.Join(output, ","+ind+"  ") + ind + braces[1]
}

func (in *inspector) isBelowBreakLength(output []string, start int, base string) bool {
	total := len(output) + start
	if total+len(output) > in.lineWidth() {
		return false
	}
	for _, s := range output {
		total += len([]rune(s))
		if total > in.lineWidth() {
			return false
		}
	}
	return base == "" || !strings.Contains(base, "\n")
}

// groupArrayElements arranges short array entries in aligned columns (node's algorithm).
func (in *inspector) groupArrayElements(output []string, vals []Value) []string {
	total, maxLen := 0, 0
	outputLen := len(output)
	if strings.HasPrefix(output[len(output)-1], "... ") {
		outputLen--
	}
	const sep = 2
	dataLen := make([]int, outputLen)
	for i := 0; i < outputLen; i++ {
		l := len([]rune(output[i]))
		dataLen[i] = l
		total += l + sep
		if maxLen < l {
			maxLen = l
		}
	}
	actualMax := maxLen + sep
	if actualMax*3+in.indent < in.lineWidth() && (float64(total)/float64(actualMax) > 5 || maxLen <= 6) {
		averageBias := math.Sqrt(float64(actualMax) - float64(total)/float64(len(output)))
		biasedMax := math.Max(float64(actualMax)-3-averageBias, 1)
		columns := min(
			int(math.Round(math.Sqrt(2.5*biasedMax*float64(outputLen))/biasedMax)),
			(in.lineWidth()-in.indent)/actualMax,
			inspectCompact*4,
			15,
		)
		if columns <= 1 {
			return output
		}
		var maxLineLength []int
		for i := 0; i < columns; i++ {
			lineLength := 0
			for j := i; j < outputLen; j += columns {
				if dataLen[j] > lineLength {
					lineLength = dataLen[j]
				}
			}
			maxLineLength = append(maxLineLength, lineLength+sep)
		}
		padStart := len(vals) == outputLen
		for _, v := range vals {
			if v.kind != KindNumber {
				padStart = false
				break
			}
		}
		var tmp []string
		for i := 0; i < outputLen; i += columns {
			maxI := min(i+columns, outputLen)
			var b strings.Builder
			j := i
			for ; j < maxI-1; j++ {
				cell := output[j] + ", "
				b.WriteString(pad(cell, maxLineLength[j-i], padStart))
			}
			if padStart {
				b.WriteString(pad(output[j], maxLineLength[j-i]-sep, true))
			} else {
				b.WriteString(output[j])
			}
			tmp = append(tmp, b.String())
		}
		if outputLen < len(output) {
			tmp = append(tmp, output[outputLen])
		}
		return tmp
	}
	return output
}

// pad pads s with spaces to width (at the start or the end).
func pad(s string, width int, start bool) string {
	n := width - len([]rune(s))
	if n <= 0 {
		return s
	}
	if start {
		return strings.Repeat(" ", n) + s
	}
	return s + strings.Repeat(" ", n)
}
