package interp

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestPromiseOrdering checks job ordering against results taken from node 20.
func TestPromiseOrdering(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		src  string
		want string
	}{
		{name: "then vs await", src: "let log = ''; const p = Promise.resolve(); p.then(() => log += 'a').then(() => log += 'b'); p.then(() => log += 'c'); (async () => { log += 'd'; await null; log += 'e'; await null; log += 'f' })(); log += 'g'; await new Promise(r => r()); await null; await null; await null; log", want: "dgacebf"},
		{name: "thenable adoption", src: "let log = ''; const thenable = { then(r) { log += 'T'; r(1) } }; (async () => { await thenable; log += 'A' })(); Promise.resolve().then(() => log += 'B').then(() => log += 'C').then(() => log += 'D'); await null; await null; await null; await null; log", want: "TBACD"},
		{name: "all and race", src: "let log = ''; Promise.all([1, Promise.resolve(2), new Promise(r => r(3))]).then(v => log += 'all' + v.length); Promise.race([new Promise(() => {}), Promise.resolve('r')]).then(v => log += v); Promise.resolve().then(() => log += 'x').then(() => log += 'y').then(() => log += 'z'); await null; await null; await null; await null; await null; log", want: "xall3ryz"},
		{name: "allSettled and any", src: "let log = ''; Promise.allSettled([Promise.reject(1), 2]).then(v => log += v[0].status + ',' + v[1].status); Promise.any([Promise.reject(1), Promise.resolve(5)]).then(v => log += v); await null; await null; await null; await null; log", want: "rejected,fulfilled5"},
		{name: "finally", src: "let log = ''; Promise.reject(new Error('x')).finally(() => log += 'F').catch(e => log += e.message); Promise.resolve(1).finally(() => 2).then(v => log += v); await null; await null; await null; await null; log", want: "Fx1"},
		{name: "nested async", src: "let log = ''; async function a() { log += 1; await b(); log += 2 } async function b() { log += 3 } a().then(() => log += 4); log += 5; await null; await null; await null; log", want: "13524"},
		{name: "awaits across several ticks", src: "const log = []; async function a() { log.push('a0'); await 1; log.push('a1'); await null; log.push('a2'); await Promise.resolve(); log.push('a3'); return 'ra' } async function b() { log.push('b0'); const x = await a(); log.push('b1:' + x); await new Promise(r => r()); log.push('b2') } async function c() { try { await Promise.reject(1) } catch (e) { log.push('c1') } await (async () => { await 0; log.push('c2') })(); log.push('c3'); return Promise.resolve('rc') } Promise.resolve().then(() => log.push('t1')).then(() => log.push('t2')).then(() => log.push('t3')).then(() => log.push('t4')).then(() => log.push('t5')).then(() => log.push('t6')).then(() => log.push('t7')); b(); c().then(v => log.push('cv:' + v)); (async () => { const v = await { then(r) { log.push('th'); r('tv') } }; log.push('th:' + v) })(); for (let i = 0; i < 20; i++) await null; log.join()", want: "b0,a0,t1,a1,c1,th,t2,a2,c2,th:tv,t3,a3,c3,t4,b1:ra,t5,b2,t6,cv:rc,t7"},
		{name: "withResolvers and try", src: "const { promise, resolve } = Promise.withResolvers(); resolve(9); (await promise) + (await Promise.try(() => 1))", want: "10"},
		{name: "any rejects", src: "let m; try { await Promise.any([Promise.reject(1)]) } catch (e) { m = e.constructor.name + e.errors.length } m", want: "AggregateError1"},
		{name: "call apply bind", src: "function f(a, b) { return this.x + a + b } const o = {x: 1}; f.call(o, 2, 3) + f.apply(o, [4, 5]) + f.bind(o, 6)(7)", want: "30"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, thrown := runProgram(t, tt.src)
			require.False(t, thrown, got)
			require.Equal(t, tt.want, got)
		})
	}
}
