const v = await Promise.resolve(1)
  .then(x => x + 1)
  .then(x => { throw new Error('at ' + x); })
  .then(() => 'skipped')
  .catch(e => e.message)
  .then(m => m + '!')
  .finally(() => 'ignored');
const passthrough = await Promise.resolve('keep').then(undefined, undefined).finally(() => {});
return [v, passthrough];
