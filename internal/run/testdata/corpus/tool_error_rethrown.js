try {
  await tools.fail({ message: 'backend down' });
} catch (e) {
  console.log('cleanup after', e.message);
  throw e;
}
