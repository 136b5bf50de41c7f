const base = { greet() { return 'base hi'; }, get who() { return 'base'; } };
const derived = { __proto__: base, greet() { return super.greet() + ' + derived'; }, get who() { return 'derived>' + super.who; } };
const grand = Object.setPrototypeOf({ greet() { return super.greet() + ' + grand'; } }, derived);
return [derived.greet(), derived.who, grand.greet(), grand.who];
