const v = await Promise.any([
  tools.fail({ message: 'first fails' }),
  tools.slow({ ms: 50 }).then(() => 'slow success'),
  tools.slow({ ms: 200 }).then(() => 'slower success'),
]);
let all;
try { await Promise.any([tools.fail({ message: 'a' }), tools.fail({ message: 'b' })]); }
catch (e) { all = [e.name, e.errors.map(x => x.message)]; }
return [v, all];
