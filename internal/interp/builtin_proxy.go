package interp

// Proxy (ECMA-262 10.5 and 28.2): the constructor, Proxy.revocable and the internal slots of
// a proxy object.
//
// A proxy is an Object of class ClassProxy whose slots are a *proxySlots. The object itself
// never holds properties: its prototype is nil and it is not extensible at the Object level,
// so that an operation that forgot to dispatch to the proxy finds an empty, frozen object
// instead of writing into it. Every internal method goes through the vm.proxy* functions
// (proxy_ops.go), which the generic operations call after a single class check on their slow
// path. A callable target makes the proxy callable (objCallable, and objConstructor for a
// constructor target); those flags survive revocation, as typeof and IsCallable require.

func init() {
	registerBuiltin("Proxy", 20, setupProxy)
	nativeProxyRevoke = registerNative("Proxy revoke", proxyRevoke)
	registerSlotType("proxy", func() slotCodec { return &proxySlots{} }, decodeProxySlots)
	registerSlotType("proxyRevoker", func() slotCodec { return &proxyRevoker{} }, func(d *heapDecoder, r *jsonReader, s slotCodec) {
		s.(*proxyRevoker).proxy = d.object(r)
	})
}

// nativeProxyRevoke is the revoke function Proxy.revocable returns (one per proxy; its data
// is a *proxyRevoker).
var nativeProxyRevoke *nativeFunction

// proxySlots are [[ProxyTarget]] and [[ProxyHandler]]; both are nil once revoked.
type proxySlots struct {
	target, handler *Object
}

// proxyRevoker is the state of a revoke function: the proxy it revokes, nil once done.
type proxyRevoker struct {
	proxy *Object
}

func setupProxy(r *Realm) {
	ctor := r.newConstructor("Proxy", 2, proxyConstructor, nil)
	r.method(ctor, "revocable", 2, proxyRevocable)
	r.defineGlobal("Proxy", objectValue(ctor))
}

// proxyConstructor is new Proxy(target, handler).
func proxyConstructor(vm *VM, c NativeCall) Value {
	if c.NewTarget == nil {
		vm.throwTypeError("Constructor Proxy requires 'new'")
	}
	return objectValue(vm.proxyCreate(c.Arg(0), c.Arg(1)))
}

// proxyCreate is ProxyCreate(target, handler).
func (vm *VM) proxyCreate(target, handler Value) *Object {
	t, h := target.asObject(), handler.asObject()
	if t == nil || h == nil {
		vm.throwTypeError("Cannot create proxy with a non-object as target or handler")
	}
	vm.allocated += objectBaseSize
	p := &Object{class: ClassProxy, slots: &proxySlots{target: t, handler: h}}
	p.flags |= t.flags & (objCallable | objConstructor)
	return p
}

// proxyRevocable is Proxy.revocable(target, handler): {proxy, revoke}.
func proxyRevocable(vm *VM, c NativeCall) Value {
	p := vm.proxyCreate(c.Arg(0), c.Arg(1))
	revoke := vm.newNativeFunction(&nativeFunction{name: nativeProxyRevoke.name, fn: nativeProxyRevoke.fn, data: &proxyRevoker{proxy: p}}, "", 0)
	out := vm.newPlainObject()
	vm.createDataProperty(out, strKey("proxy"), objectValue(p))
	vm.createDataProperty(out, strKey("revoke"), objectValue(revoke))
	return objectValue(out)
}

// proxyRevoke is the revoke function: it clears the proxy's slots (once).
func proxyRevoke(vm *VM, c NativeCall) Value {
	st := c.Callee.slots.(*nativeFunction).data.(*proxyRevoker)
	if p := st.proxy; p != nil {
		st.proxy = nil
		s := p.slots.(*proxySlots)
		s.target, s.handler = nil, nil
	}
	return undefinedValue
}

// callFunction is [[Call]] and [[Construct]] of a callable proxy (functionSlots).
func (s *proxySlots) callFunction(vm *VM, this Value, args []Value, newTarget *Object) Value {
	if newTarget != nil {
		return vm.proxyConstruct(s, args, newTarget)
	}
	return vm.proxyCall(s, this, args)
}

// Snapshot codec: [target, handler] (null, null once revoked).

func (s *proxySlots) slotTag() string { return "proxy" }

func (s *proxySlots) encodeSlot(e *heapEncoder) {
	e.w.beginArray()
	e.object(s.target)
	e.object(s.handler)
	e.w.endArray()
}

func (s *proxySlots) walkSlot(w *heapWalker) {
	w.object(s.target)
	w.object(s.handler)
}

func decodeProxySlots(d *heapDecoder, r *jsonReader, sc slotCodec) {
	s := sc.(*proxySlots)
	r.beginArray()
	r.more(true)
	s.target = d.object(r)
	r.more(false)
	s.handler = d.object(r)
	r.more(false)
	if (s.target == nil) != (s.handler == nil) {
		r.fail("proxy with only one of target and handler")
	}
}

func (s *proxyRevoker) slotTag() string { return "proxyRevoker" }

func (s *proxyRevoker) encodeSlot(e *heapEncoder) { e.object(s.proxy) }

func (s *proxyRevoker) walkSlot(w *heapWalker) { w.object(s.proxy) }
