const n = [1, 2, 3, 4, 5, 6];
return [n.map(x => x * 2), n.filter(x => x % 2), n.reduce((a, b) => a + b), n.reduceRight((a, b) => a + '-' + b, ''), n.find(x => x > 3), n.findIndex(x => x > 3), n.findLast(x => x < 3), n.findLastIndex(x => x > 10), n.some(x => x > 5), n.every(x => x > 0), n.flatMap(x => x % 2 ? [x, x] : []), [[1, [2, [3, [4]]]]].flat(2), [[1, [2]]].flat(Infinity)];
