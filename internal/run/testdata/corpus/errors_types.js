const errs = [new Error('e'), new TypeError('t'), new RangeError('r'), new SyntaxError('s'), new ReferenceError('re'), new EvalError('ev'), new URIError('u')];
const out = errs.map(e => [e.name, e.message, String(e), e instanceof Error, Object.prototype.toString.call(e)]);
const c = new Error('outer', { cause: { code: 1 } });
const agg = new AggregateError([new Error('a'), 'b'], 'many');
return [out, c.cause, 'cause' in new Error('x'), agg.name, agg.message, agg.errors.length, Object.keys(new Error('k'))];
