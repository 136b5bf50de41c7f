/*---
description: Includes are loaded before the test.
includes: [compareArray.js]
---*/
assert(sameArray([1, 2].concat([3]), [1, 2, 3]), "concat");
