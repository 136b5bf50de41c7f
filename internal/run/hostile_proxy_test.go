package run

import "testing"

// TestHostileProxies runs proxies whose traps recurse, chains of proxies deep enough to
// exhaust the Go stack if each level recursed in Go, trap loops and huge ownKeys results:
// each ends with the limit errors, never a crash or a hang.
func TestHostileProxies(t *testing.T) {
	t.Parallel()
	lim := Limits{TimeoutMs: safetyMs, MaxMemoryBytes: 256 << 20}
	loop := Limits{TimeoutMs: loopLimitMs}
	mem := Limits{TimeoutMs: safetyMs, MaxMemoryBytes: memLimit}
	runHostile(t, []hostileCase{
		{name: "get trap reading itself", src: "const p = new Proxy({}, {get(t, k) { return p[k] }}); p.x",
			limits: lim, kind: KindExecutionFailure, msg: stackOver, wall: safetyWall},
		{name: "get trap reading itself caught", src: "const p = new Proxy({}, {get(t, k) { return p[k] }}); try { p.x } catch (e) { return e.name }",
			limits: lim, value: `"RangeError"`, wall: safetyWall},
		{name: "ownKeys trap listing itself", src: "const p = new Proxy({}, {ownKeys() { return Reflect.ownKeys(p) }}); Object.keys(p)",
			limits: lim, kind: KindExecutionFailure, msg: stackOver, wall: safetyWall},
		{name: "handler is a proxy reading the proxy", src: "const p = new Proxy({}, new Proxy({}, {get(t, k) { return p[k] }})); p.x",
			limits: lim, kind: KindExecutionFailure, msg: stackOver, wall: safetyWall},
		{name: "deep chain get", src: "let p = {}; for (let i = 0; i < 1e5; i++) p = new Proxy(p, {}); p.x",
			limits: lim, kind: KindExecutionFailure, msg: stackOver, wall: safetyWall},
		{name: "deep chain call", src: "let p = function () {}; for (let i = 0; i < 1e5; i++) p = new Proxy(p, {}); p()",
			limits: lim, kind: KindExecutionFailure, msg: stackOver, wall: safetyWall},
		{name: "deep chain keys", src: "let p = {}; for (let i = 0; i < 1e5; i++) p = new Proxy(p, {}); Object.keys(p)",
			limits: lim, kind: KindExecutionFailure, msg: stackOver, wall: safetyWall},
		{name: "deep chain isArray", src: "let p = []; for (let i = 0; i < 1e5; i++) p = new Proxy(p, {}); Array.isArray(p)",
			limits: lim, value: "true", wall: safetyWall},
		{name: "cyclic getPrototypeOf", src: "const p = new Proxy({}, {getPrototypeOf() { return p }}); Object.prototype.isPrototypeOf.call({}, p)",
			limits: loop, kind: KindTimeoutExceeded, wall: loopWall},
		{name: "ownKeys of length 1e9", src: "Object.keys(new Proxy({}, {ownKeys() { return {length: 1e9} }}))",
			limits: lim, kind: KindExecutionFailure, msg: "RangeError: Too many properties to enumerate", wall: safetyWall},
		{name: "ownKeys of length 9e6", src: "Object.keys(new Proxy({}, {ownKeys() { return {length: 9e6} }}))",
			limits: mem, kind: KindMemoryLimitExceeded, wall: safetyWall},
		{name: "proxies past the memory limit", src: "let p = {}; for (;;) p = new Proxy(p, {})",
			limits: mem, kind: KindMemoryLimitExceeded, wall: safetyWall},
	})
}
