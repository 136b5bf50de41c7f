const log = [];
async function a1() { log.push('a1 start'); await a2(); log.push('a1 end'); }
async function a2() { log.push('a2'); }
log.push('script start');
a1();
new Promise(r => { log.push('p1'); r(); }).then(() => log.push('then1')).then(() => log.push('then2'));
log.push('script end');
for (let i = 0; i < 6; i++) await null;
return log;
