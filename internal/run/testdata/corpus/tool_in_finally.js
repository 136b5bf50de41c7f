const log = [];
async function withCleanup() {
  try {
    await tools.fail({ message: 'work failed' });
  } finally {
    const { text } = await tools.string.upper({ text: 'cleanup ran' });
    log.push(text);
  }
}
try { await withCleanup(); } catch (e) { log.push('error: ' + e.message); }
return log;
