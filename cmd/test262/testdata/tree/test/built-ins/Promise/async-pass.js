/*---
description: An async test that completes.
flags: [async]
---*/
var order = [];
Promise.resolve(1).then(function (v) {
  order.push(v);
}).then(function () {
  assert.sameValue(order.length, 1);
}).then($DONE, $DONE);
