const first = await Promise.race([
  tools.fail({ message: 'fast failure' }).catch(e => 'caught ' + e.message),
  tools.slow({ ms: 300 }).then(() => 'slow'),
]);
let raced;
try { await Promise.race([tools.slow({ ms: 300 }), tools.fail({ message: 'race lost' })]); }
catch (e) { raced = e.message; }
return [first, raced];
