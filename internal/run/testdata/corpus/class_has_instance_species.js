class Even { static [Symbol.hasInstance](n) { return n % 2 === 0; } }
class Tagged { get [Symbol.toStringTag]() { return 'Tagged'; } }
return [2 instanceof Even, 3 instanceof Even, String(new Tagged()), Object.prototype.toString.call(new Tagged())];
