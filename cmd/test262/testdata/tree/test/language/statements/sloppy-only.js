/*---
description: A sloppy-mode test (skipped).
flags: [noStrict]
---*/
with ({}) {}
