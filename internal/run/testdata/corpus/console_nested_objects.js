console.log({ str: "it's", dq: 'say "hi"', nested: [[1, [2, [3, [4]]]]], fn: function named() {}, arrow: () => 1, sym: Symbol('s'), nul: null });
console.log([new Error('in array').message]);
console.log(Object.create(null));
console.log(['a'.repeat(20), 'b'.repeat(20), 'c'.repeat(20), 'd'.repeat(20)]);
class Pt { constructor() { this.x = 1; } }
console.log(new Pt(), [new Pt()]);
return null;
