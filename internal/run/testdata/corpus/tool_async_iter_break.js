const log = [];
async function* feed() {
  try {
    for (const text of ['a', 'b', 'c', 'd']) yield (await tools.string.upper({ text })).text;
  } finally {
    log.push('feed closed');
  }
}
for await (const t of feed()) { log.push(t); if (t === 'B') break; }
return log;
