const a = new Set([1, 2, 3, 4]), b = new Set([3, 4, 5]);
return [[...a.union(b)], [...a.intersection(b)], [...a.difference(b)], [...a.symmetricDifference(b)], a.isSubsetOf(new Set([1, 2, 3, 4, 5])), a.isSupersetOf(new Set([1])), a.isDisjointFrom(new Set([9]))];
