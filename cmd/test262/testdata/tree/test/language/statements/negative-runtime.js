/*---
description: An uncaught TypeError at runtime.
negative:
  phase: runtime
  type: TypeError
---*/
null.property;
