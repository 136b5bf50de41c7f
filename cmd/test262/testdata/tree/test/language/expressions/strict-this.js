/*---
description: Strict mode is in force (this is undefined in a plain call).
flags: [onlyStrict]
---*/
function f() { return this; }
assert.sameValue(f(), undefined);
assert.throws(ReferenceError, function () { undeclaredVariable = 1; });
