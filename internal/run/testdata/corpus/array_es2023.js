const a = [3, 1, 2];
const sorted = a.toSorted();
const rev = a.toReversed();
const withed = a.with(1, 'w');
const spliced = a.toSpliced(0, 1, 'new');
return [a, sorted, rev, withed, spliced, a.at(-1), [1, 2, 3].findLast(x => x < 3)];
