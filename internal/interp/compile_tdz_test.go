package interp

import "testing"

// TestDeadZoneAfterDeclarations checks the reads and writes of let, const and class bindings
// around their declarations, where the compiler leaves out the dead-zone check of a binding
// its declaration has initialised (results from node).
func TestDeadZoneAfterDeclarations(t *testing.T) {
	t.Parallel()
	runJSCases(t, []jsCase{
		{"switch_clause_skips_declaration", `let r = []; for (const k of [0, 1]) { try { switch (k) { case 0: let y = 1; r.push(y); break; case 1: r.push(y) } } catch (e) { r.push(e.name) } } r.join()`, "1,ReferenceError"},
		{"loop_body_entered_again", `let r = []; for (let i = 0; i < 2; i++) { try { if (i) r.push(x) } catch (e) { r.push(e.name) } let x = i; r.push(x) } r.join()`, "0,ReferenceError,1"},
		{"finally_copies", `const out = []; function f(k) { for (let i = 0; i < 2; i++) { try { if (i === k) return } finally { try { out.push(z) } catch (e) { out.push(e.name) } let z = i; out.push(z) } } } f(0); f(5); out.join()`, "ReferenceError,0,ReferenceError,0,ReferenceError,1"},
		{"own_initialiser", `let r; try { let a = a + 1 } catch (e) { r = e.name } r`, "ReferenceError"},
		{"pattern_defaults", `let r; try { let [a = b, b] = [] } catch (e) { r = e.name } let [c = 1, d = c] = []; r + d`, "ReferenceError1"},
		{"for_of_head", `let r; try { for (const x of [x]) {} } catch (e) { r = e.name } let s = 0; for (const x of [1, 2]) { s += x } r + s`, "ReferenceError3"},
		{"class_before_declaration", `let r; try { new C } catch (e) { r = e.name } class C {}; r + (new C instanceof C)`, "ReferenceErrortrue"},
		{"closure_called_before", `let r; function g() { return v } try { g() } catch (e) { r = e.name } let v = 2; r + g()`, "ReferenceError2"},
		{"this_before_super", `class A { constructor() { this.a = 1 } } class B extends A { constructor() { let r; try { this.x } catch (e) { r = e.name } super(); this.r = r } } new B().r + new B().a`, "ReferenceError1"},
		{"assignment_before", `let r; try { q = 1; let q } catch (e) { r = e.name } r`, "ReferenceError"},
		{"const_assignment_after", `const k = 1; let r; try { k = 2 } catch (e) { r = e.name } r + k`, "TypeError1"},
		{"generator_resumed", `function* g() { let a = yield 1; yield a } const it = g(); it.next(); it.next(7).value`, "7"},
		{"loop_locals", `let r = []; for (let i = 0; i < 3; i++) { let a = i; let b = a * 2; a += b; r.push(a) } r.join()`, "0,3,6"},
	})
}
