/*---
description: An assertion that fails (listed in the expectations file).
---*/
assert.sameValue(1 + 1, 3, "arithmetic");
