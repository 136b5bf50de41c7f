const Serializable = Base => class extends Base { serialize() { return JSON.stringify(this); } };
const Named = Base => class extends Base { get label() { return 'named:' + this.id; } };
class Entity { constructor(id) { this.id = id; } }
class User extends Serializable(Named(Entity)) {}
const u = new User(7);
class Coll { constructor(...xs) { this.xs = xs; } *[Symbol.iterator]() { yield* this.xs; } get [Symbol.toStringTag]() { return 'Coll'; } }
return [u.serialize(), u.label, [...new Coll(1, 2, 3)], Object.prototype.toString.call(new Coll())];
