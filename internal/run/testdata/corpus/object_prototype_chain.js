function Animal(name) { this.name = name; }
Animal.prototype.speak = function () { return this.name + ' speaks'; };
function Dog(name) { Animal.call(this, name); }
Dog.prototype = Object.create(Animal.prototype);
Dog.prototype.constructor = Dog;
const d = new Dog('d');
const bare = Object.create(null);
bare.x = 1;
return [d.speak(), d instanceof Animal, Animal.prototype.isPrototypeOf(d), Object.getPrototypeOf(Object.getPrototypeOf(d)) === Animal.prototype, 'x' in bare, typeof bare.toString, Object.keys(bare), ({}).toString(), Object.prototype.toString.call([]), Object.prototype.toString.call(null)];
