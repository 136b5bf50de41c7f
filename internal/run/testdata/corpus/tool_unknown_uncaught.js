await tools.math.multiply({ a: 2, b: 3 });
return 'unreachable';
