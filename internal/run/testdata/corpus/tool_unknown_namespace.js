// A call through a namespace that does not exist is an unknown tool too.
const kinds = [];
try {
  await tools.mathx.add({ a: 1, b: 2 });
} catch (e) {
  kinds.push(e.kind, e.message.startsWith('tools.mathx.add is not a tool'));
}
try {
  await tools.nope.deeper.still({});
} catch (e) {
  kinds.push(e.kind);
}
return kinds;
