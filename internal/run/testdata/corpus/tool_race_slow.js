const winner = await Promise.race([
  tools.slow({ ms: 400 }).then(() => 'slow'),
  tools.slow({ ms: 20 }).then(() => 'fast'),
]);
return winner;
