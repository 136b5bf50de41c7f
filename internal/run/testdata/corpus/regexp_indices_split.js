const m = /(b)(?<n>c)/d.exec('abcd');
return [m.indices[0], m.indices[1], m.indices.groups.n, 'a, b;c  d'.split(/[,;\s]+/), 'abc'.split(/(?:)/u), RegExp('a|b', 'g').flags, new RegExp(/x/g, 'i').flags, RegExp.prototype.toString.call(/a/g)];
