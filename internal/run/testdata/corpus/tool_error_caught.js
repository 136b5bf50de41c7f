try {
  await tools.math.divide({ a: 1, b: 0 });
  return 'no error';
} catch (e) {
  return { isError: e instanceof Error, name: e.name, message: e.message, kind: e.kind, str: String(e) };
}
