/*---
description: A raw test runs unchanged, without the harness.
flags: [raw]
---*/
if (typeof assert !== "undefined") {
  throw new Error("the harness was included");
}
