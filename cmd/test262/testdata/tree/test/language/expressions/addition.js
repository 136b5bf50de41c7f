/*---
description: Addition of numbers and strings (passes).
---*/
assert.sameValue(1 + 2, 3);
assert.sameValue("a" + 1, "a1");
