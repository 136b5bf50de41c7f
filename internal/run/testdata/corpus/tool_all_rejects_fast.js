const log = [];
try {
  await Promise.all([
    tools.slow({ ms: 300 }).then(() => log.push('slow done')),
    tools.fail({ message: 'fails fast' }),
  ]);
} catch (e) { log.push('caught ' + e.message); }
return log;
