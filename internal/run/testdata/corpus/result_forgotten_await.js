// A forgotten await leaves a Promise in the result: not data.
return { sum: tools.math.add({ a: 1, b: 2 }) };
