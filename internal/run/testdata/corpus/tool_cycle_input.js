const o = { name: 'loop' };
o.self = o;
try { await tools.echo(o); return 'sent'; }
catch (e) { return e.kind; }
