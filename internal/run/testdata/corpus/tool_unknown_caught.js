try { await tools.math.sub({ a: 2, b: 3 }); return 'called'; }
catch (e) { return [e instanceof Error, e.kind]; }
