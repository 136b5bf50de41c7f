/*---
description: A syntax error is reported at parse time.
negative:
  phase: parse
  type: SyntaxError
---*/
$DONOTEVALUATE();
var a = ;
