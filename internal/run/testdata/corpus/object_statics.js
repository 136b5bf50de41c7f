const o = { a: 1, b: 2 };
const frozen = Object.freeze({ x: 1 });
const sealed = Object.seal({ y: 1 });
sealed.y = 2;
const created = Object.create({ proto: true }, { own: { value: 'v', enumerable: true } });
return [Object.keys(o), Object.values(o), Object.entries(o), Object.fromEntries([['k', 'v'], ['n', 1]]), Object.assign({}, o, { c: 3 }, null),
  Object.isFrozen(frozen), Object.isSealed(sealed), sealed.y, created.own, created.proto, Object.getPrototypeOf(created).proto,
  Object.hasOwn(created, 'proto'), Object.getOwnPropertyNames('ab')];
