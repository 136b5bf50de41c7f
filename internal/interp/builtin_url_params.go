package interp

import (
	"slices"
	"strings"
	"unicode/utf16"

	"github.com/codemode/codemode/internal/interp/whatwgurl"
)

// The URLSearchParams global: an ordered list of name/value pairs parsed from and serialized
// to application/x-www-form-urlencoded, live-bound to the query of the URL it belongs to.

func init() { registerBuiltin("URLSearchParams", 50, setupURLSearchParams) }

// paramsData is the internal slot of a URLSearchParams object.
type paramsData struct {
	list [][2]string // name/value pairs (UTF-8)
	url  Value       // the URL object whose query this list is, or undefined
}

// paramsIterator is the slot of a URLSearchParams Iterator.
type paramsIterator struct {
	target Value // the URLSearchParams object
	index  int
	kind   collIterKind
}

// setupURLSearchParams installs URLSearchParams and its iterator prototype.
func setupURLSearchParams(r *Realm) {
	proto := r.vm.newObject(r.ObjectPrototype, ClassObject)
	ctor := r.newConstructor("URLSearchParams", 0, urlSearchParamsConstructor, proto)
	r.method(proto, "append", 2, paramsAppend)
	r.method(proto, "delete", 1, paramsDelete)
	r.method(proto, "get", 1, paramsGet)
	r.method(proto, "getAll", 1, paramsGetAll)
	r.method(proto, "has", 1, paramsHas)
	r.method(proto, "set", 2, paramsSet)
	r.method(proto, "sort", 0, paramsSort)
	entries := r.method(proto, "entries", 0, func(vm *VM, c NativeCall) Value { return paramsIter(vm, c, collEntries, "entries") })
	r.method(proto, "forEach", 1, paramsForEach)
	r.method(proto, "keys", 0, func(vm *VM, c NativeCall) Value { return paramsIter(vm, c, collKeys, "keys") })
	r.method(proto, "values", 0, func(vm *VM, c NativeCall) Value { return paramsIter(vm, c, collValues, "values") })
	r.method(proto, "toString", 0, paramsToString)
	r.getter(proto, strKey("size"), func(vm *VM, c NativeCall) Value {
		return intValue(len(thisParams(vm, c.This, "get URLSearchParams.prototype.size").list))
	})
	r.value(proto, symKey(symIterator), objectValue(entries), propHidden)
	r.value(proto, symKey(symToStringTag), asciiValue("URLSearchParams"), propConfigurable)
	r.defineGlobal("URLSearchParams", objectValue(ctor))

	ip := r.vm.newObject(r.IteratorPrototype, ClassObject)
	r.addIntrinsic("%URLSearchParamsIteratorPrototype%", ip)
	r.method(ip, "next", 0, paramsIteratorNext)
	r.value(ip, symKey(symToStringTag), asciiValue("URLSearchParams Iterator"), propConfigurable)
}

// thisParams returns the slot of this URLSearchParams.
func thisParams(vm *VM, this Value, method string) *paramsData {
	if o := this.asObject(); o != nil && o.class == ClassURLSearchParams {
		if d, ok := o.slots.(*paramsData); ok {
			return d
		}
	}
	vm.throwTypeError("Method %s called on incompatible receiver %s", method, vm.describeReceiver(this))
	return nil
}

// parseURLEncoded is the application/x-www-form-urlencoded parser.
func parseURLEncoded(s string) [][2]string {
	var out [][2]string
	for _, seq := range strings.Split(s, "&") {
		if seq == "" {
			continue
		}
		name, value, _ := strings.Cut(seq, "=")
		name = strings.ReplaceAll(name, "+", " ")
		value = strings.ReplaceAll(value, "+", " ")
		out = append(out, [2]string{
			strings.ToValidUTF8(string(whatwgurl.PercentDecode(name)), "\uFFFD"),
			strings.ToValidUTF8(string(whatwgurl.PercentDecode(value)), "\uFFFD"),
		})
	}
	return out
}

// formEncode is the application/x-www-form-urlencoded byte serializer.
func formEncode(b *strings.Builder, s string) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ':
			b.WriteByte('+')
		case c == '*' || c == '-' || c == '.' || c == '_' || (c >= '0' && c <= '9') ||
			(c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'):
			b.WriteByte(c)
		default:
			b.WriteByte('%')
			b.WriteByte("0123456789ABCDEF"[c>>4])
			b.WriteByte("0123456789ABCDEF"[c&15])
		}
	}
}

// serialize encodes the list.
func (d *paramsData) serialize() string {
	var b strings.Builder
	for i, kv := range d.list {
		if i > 0 {
			b.WriteByte('&')
		}
		formEncode(&b, kv[0])
		b.WriteByte('=')
		formEncode(&b, kv[1])
	}
	return b.String()
}

// update writes the list back into the URL's query.
func (d *paramsData) update() {
	o := d.url.asObject()
	if o == nil {
		return
	}
	u := o.slots.(*urlData)
	q := d.serialize()
	if q == "" {
		u.rec.Query, u.rec.HasQuery = "", false
		return
	}
	u.rec.Query, u.rec.HasQuery = q, true
}

// urlSearchParamsConstructor is new URLSearchParams(init): a query string (leading '?'
// ignored), an iterable of pairs, or a record of names to values.
func urlSearchParamsConstructor(vm *VM, c NativeCall) Value {
	if c.NewTarget == nil {
		vm.throwTypeError("Class constructor URLSearchParams cannot be invoked without 'new'")
	}
	d := &paramsData{}
	init := c.Arg(0)
	switch {
	case init.IsNullish():
	case init.kind == KindObject:
		method := vm.getMethod(init, symKey(symIterator))
		if !method.IsUndefined() {
			it := vm.getIteratorFromMethod(init, method)
			vm.iterate(it, func(pair Value) bool {
				if pair.kind != KindObject {
					vm.throwTypeError("Each query pair must be an iterable [name, value] tuple")
				}
				parts := vm.iterableToList(pair)
				if len(parts) != 2 {
					vm.throwTypeError("Each query pair must be an iterable [name, value] tuple")
				}
				d.list = append(d.list, [2]string{vm.ToGoString(parts[0]), vm.ToGoString(parts[1])})
				return true
			})
		} else {
			o := init.obj()
			for _, k := range vm.ownPropertyKeys(o) {
				if k.isSymbol() {
					continue
				}
				desc, ok := vm.getOwnProperty(o, k)
				if !ok || !desc.Enumerable {
					continue
				}
				v := vm.getProp(o, k)
				d.list = append(d.list, [2]string{k.toValue().str().String(), vm.ToGoString(v)})
			}
		}
	default:
		s := vm.ToGoString(init)
		s = strings.TrimPrefix(s, "?")
		d.list = parseURLEncoded(s)
	}
	o := vm.ordinaryCreateFromConstructor(c.NewTarget, "URLSearchParams.prototype", ClassURLSearchParams)
	o.slots = d
	return objectValue(o)
}

// paramsAppend is URLSearchParams.prototype.append(name, value).
func paramsAppend(vm *VM, c NativeCall) Value {
	d := thisParams(vm, c.This, "URLSearchParams.prototype.append")
	if len(c.Args) < 2 {
		vm.throwTypeError("The \"name\" and \"value\" arguments must be specified")
	}
	d.list = append(d.list, [2]string{vm.ToGoString(c.Arg(0)), vm.ToGoString(c.Arg(1))})
	vm.allocated += 2 * valueSize
	d.update()
	return undefinedValue
}

// nameValueArgs reads (name[, value]) for delete and has.
func nameValueArgs(vm *VM, c NativeCall) (string, string, bool) {
	if len(c.Args) == 0 {
		vm.throwTypeError("The \"name\" argument must be specified")
	}
	name := vm.ToGoString(c.Arg(0))
	if v := c.Arg(1); !v.IsUndefined() {
		return name, vm.ToGoString(v), true
	}
	return name, "", false
}

// paramsDelete is URLSearchParams.prototype.delete(name[, value]).
func paramsDelete(vm *VM, c NativeCall) Value {
	d := thisParams(vm, c.This, "URLSearchParams.prototype.delete")
	name, value, hasValue := nameValueArgs(vm, c)
	d.list = slices.DeleteFunc(d.list, func(kv [2]string) bool {
		return kv[0] == name && (!hasValue || kv[1] == value)
	})
	d.update()
	return undefinedValue
}

// paramsHas is URLSearchParams.prototype.has(name[, value]).
func paramsHas(vm *VM, c NativeCall) Value {
	d := thisParams(vm, c.This, "URLSearchParams.prototype.has")
	name, value, hasValue := nameValueArgs(vm, c)
	for _, kv := range d.list {
		if kv[0] == name && (!hasValue || kv[1] == value) {
			return trueValue
		}
	}
	return falseValue
}

// paramsGet is URLSearchParams.prototype.get(name): the first value or null.
func paramsGet(vm *VM, c NativeCall) Value {
	d := thisParams(vm, c.This, "URLSearchParams.prototype.get")
	if len(c.Args) == 0 {
		vm.throwTypeError("The \"name\" argument must be specified")
	}
	name := vm.ToGoString(c.Arg(0))
	for _, kv := range d.list {
		if kv[0] == name {
			return vm.String(kv[1])
		}
	}
	return nullValue
}

// paramsGetAll is URLSearchParams.prototype.getAll(name).
func paramsGetAll(vm *VM, c NativeCall) Value {
	d := thisParams(vm, c.This, "URLSearchParams.prototype.getAll")
	if len(c.Args) == 0 {
		vm.throwTypeError("The \"name\" argument must be specified")
	}
	name := vm.ToGoString(c.Arg(0))
	var out []Value
	for _, kv := range d.list {
		if kv[0] == name {
			out = append(out, vm.String(kv[1]))
		}
	}
	return vm.newArrayValue(out)
}

// paramsSet is URLSearchParams.prototype.set(name, value): replaces the first pair named
// name and removes the others, or appends.
func paramsSet(vm *VM, c NativeCall) Value {
	d := thisParams(vm, c.This, "URLSearchParams.prototype.set")
	if len(c.Args) < 2 {
		vm.throwTypeError("The \"name\" and \"value\" arguments must be specified")
	}
	name, value := vm.ToGoString(c.Arg(0)), vm.ToGoString(c.Arg(1))
	found := false
	out := d.list[:0]
	for _, kv := range d.list {
		if kv[0] == name {
			if found {
				continue
			}
			found = true
			kv[1] = value
		}
		out = append(out, kv)
	}
	d.list = out
	if !found {
		d.list = append(d.list, [2]string{name, value})
	}
	d.update()
	return undefinedValue
}

// paramsSort is URLSearchParams.prototype.sort: stable, by the UTF-16 code units of names.
func paramsSort(vm *VM, c NativeCall) Value {
	d := thisParams(vm, c.This, "URLSearchParams.prototype.sort")
	slices.SortStableFunc(d.list, func(a, b [2]string) int {
		return slices.Compare(utf16.Encode([]rune(a[0])), utf16.Encode([]rune(b[0])))
	})
	d.update()
	return undefinedValue
}

// paramsToString is URLSearchParams.prototype.toString.
func paramsToString(vm *VM, c NativeCall) Value {
	return vm.String(thisParams(vm, c.This, "URLSearchParams.prototype.toString").serialize())
}

// paramsForEach is URLSearchParams.prototype.forEach(callback, thisArg): live over the list.
func paramsForEach(vm *VM, c NativeCall) Value {
	d := thisParams(vm, c.This, "URLSearchParams.prototype.forEach")
	fn := c.Arg(0)
	if !IsCallable(fn) {
		vm.throwTypeError("The \"callback\" argument must be of type function. Received %s", vm.describeForError(fn))
	}
	for i := 0; i < len(d.list); i++ {
		kv := d.list[i]
		vm.Call(fn, c.Arg(1), vm.String(kv[1]), vm.String(kv[0]), c.This)
	}
	return undefinedValue
}

// paramsIter creates a URLSearchParams Iterator.
func paramsIter(vm *VM, c NativeCall, kind collIterKind, method string) Value {
	thisParams(vm, c.This, "URLSearchParams.prototype."+method)
	o := vm.newObject(vm.realm.Intrinsic("%URLSearchParamsIteratorPrototype%"), ClassIterator)
	o.slots = &paramsIterator{target: c.This, kind: kind}
	return objectValue(o)
}

// paramsIteratorNext is %URLSearchParamsIteratorPrototype%.next.
func paramsIteratorNext(vm *VM, c NativeCall) Value {
	var it *paramsIterator
	if o := c.This.asObject(); o != nil {
		it, _ = o.slots.(*paramsIterator)
	}
	if it == nil {
		vm.throwTypeError("Method URLSearchParams Iterator.prototype.next called on incompatible receiver %s", vm.describeReceiver(c.This))
	}
	po := it.target.asObject()
	if po == nil {
		return vm.createIterResultObject(undefinedValue, true)
	}
	d, ok := po.slots.(*paramsData)
	if !ok || it.index >= len(d.list) {
		it.target = undefinedValue
		return vm.createIterResultObject(undefinedValue, true)
	}
	kv := d.list[it.index]
	it.index++
	switch it.kind {
	case collKeys:
		return vm.createIterResultObject(vm.String(kv[0]), false)
	case collValues:
		return vm.createIterResultObject(vm.String(kv[1]), false)
	}
	return vm.createIterResultObject(vm.newArrayValue([]Value{vm.String(kv[0]), vm.String(kv[1])}), false)
}

func init() {
	registerSlotType("urlSearchParams", func() slotCodec { return &paramsData{} }, func(d *heapDecoder, r *jsonReader, s slotCodec) {
		p := s.(*paramsData)
		r.beginArray()
		r.more(true)
		p.url = d.value(r)
		r.more(false)
		r.beginArray()
		for first := true; r.more(first); first = false {
			name := r.goString()
			r.more(false)
			value := r.goString()
			p.list = append(p.list, [2]string{name, value})
		}
		r.more(false)
	})
	registerSlotType("urlSearchParamsIterator", func() slotCodec { return &paramsIterator{} }, func(d *heapDecoder, r *jsonReader, s slotCodec) {
		it := s.(*paramsIterator)
		r.beginArray()
		r.more(true)
		it.target = d.value(r)
		r.more(false)
		it.index = int(r.int())
		r.more(false)
		it.kind = collIterKind(r.int())
		r.more(false)
		if it.target.kind != KindObject && !it.target.IsUndefined() {
			r.fail("URLSearchParams iterator over a non-object")
		}
	})
}

func (p *paramsData) slotTag() string { return "urlSearchParams" }
func (p *paramsData) encodeSlot(e *heapEncoder) {
	e.w.beginArray()
	e.value(p.url)
	e.w.beginArray()
	for _, kv := range p.list {
		e.w.string(kv[0])
		e.w.string(kv[1])
	}
	e.w.endArray()
	e.w.endArray()
}
func (p *paramsData) walkSlot(w *heapWalker) {
	for _, kv := range p.list {
		w.add(int64(len(kv[0]) + len(kv[1]) + 32))
	}
	w.value(p.url)
}

func (it *paramsIterator) slotTag() string { return "urlSearchParamsIterator" }
func (it *paramsIterator) encodeSlot(e *heapEncoder) {
	e.w.beginArray()
	e.value(it.target)
	e.w.int(int64(it.index))
	e.w.int(int64(it.kind))
	e.w.endArray()
}
func (it *paramsIterator) walkSlot(w *heapWalker) { w.value(it.target) }

// consoleInspect prints URLSearchParams as node does: "URLSearchParams { 'a' => '1' }".
func (p *paramsData) consoleInspect(vm *VM, format func(Value) string) (string, []string, string) {
	entries := make([]string, len(p.list))
	for i, kv := range p.list {
		entries[i] = format(vm.String(kv[0])) + " => " + format(vm.String(kv[1]))
	}
	if len(entries) == 0 {
		return "", nil, "URLSearchParams {}"
	}
	return "URLSearchParams", entries, ""
}
