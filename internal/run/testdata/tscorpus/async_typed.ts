async function sumAll(pairs: Array<[number, number]>): Promise<number[]> {
  const results = await Promise.all(pairs.map(async ([a, b]): Promise<number> => {
    const r = (await tools.math.add({ a, b })) as { sum: number };
    return r.sum;
  }));
  return results;
}
return await sumAll([[1, 2], [3, 4], [5, 6]]);
