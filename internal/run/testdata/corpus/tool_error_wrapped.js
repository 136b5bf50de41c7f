try {
  await tools.fail({ message: 'low level' });
} catch (e) {
  throw new Error('high level: ' + e.message, { cause: e });
}
