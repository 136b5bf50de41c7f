class Animal {
  constructor(name) { this.name = name; }
  speak() { return `${this.name} makes a sound`; }
  get kind() { return 'animal'; }
  static create(n) { return new this(n); }
}
class Dog extends Animal {
  constructor(name) { super(name); this.tricks = []; }
  speak() { return super.speak() + ' (woof)'; }
  get kind() { return 'dog/' + super.kind; }
}
const d = Dog.create('Rex');
return [d.speak(), d.kind, d instanceof Dog, d instanceof Animal, Object.getPrototypeOf(Dog) === Animal, d.constructor.name];
