// Minimal stand-in for test262's assert.js, for the runner's own tests.
function assert(mustBeTrue, message) {
  if (mustBeTrue === true) {
    return;
  }
  throw new Test262Error(message || "Expected true but got " + String(mustBeTrue));
}
assert.sameValue = function (actual, expected, message) {
  if (actual === expected || (actual !== actual && expected !== expected)) {
    return;
  }
  throw new Test262Error((message ? message + " " : "") + "Expected SameValue(" + String(actual) + ", " + String(expected) + ")");
};
assert.throws = function (expectedErrorConstructor, func, message) {
  try {
    func();
  } catch (thrown) {
    if (thrown.constructor !== expectedErrorConstructor) {
      throw new Test262Error("Expected a " + expectedErrorConstructor.name + " but got a different error");
    }
    return;
  }
  throw new Test262Error("Expected a " + expectedErrorConstructor.name + " to be thrown but no exception was thrown at all");
};
