const out = [];
try { await tools.fail({ message: 'inspect me' }); }
catch (e) {
  out.push(Object.prototype.toString.call(e), e.constructor === Error, typeof e.stack, 'kind' in e, e.message.length);
}
try { await tools.math.add({ a: 'x' }); }
catch (e) { out.push(e.constructor === Error, e.kind); }
return out;
