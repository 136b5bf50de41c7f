/*---
description: An async test that reports a failure through $DONE (listed in the expectations file).
flags: [async]
---*/
Promise.reject(new Test262Error("rejected on purpose")).then(function () {
  $DONE();
}, $DONE);
