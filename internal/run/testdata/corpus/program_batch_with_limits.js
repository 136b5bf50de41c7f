async function mapLimit(items, limit, fn) {
  const results = new Array(items.length);
  let next = 0;
  async function worker(id) {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i], id);
    }
  }
  await Promise.all(Array.from({ length: limit }, (_, id) => worker(id)));
  return results;
}
const out = await mapLimit([40, 10, 30, 20, 5], 2, async (ms) => (await tools.slow({ ms })).slept * 2);
return out;
