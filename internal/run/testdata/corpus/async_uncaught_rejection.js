async function fail() { await null; throw new Error('async failure'); }
console.log('start');
await fail();
return 'unreachable';
