function classify(v) {
  switch (typeof v) {
    case 'number':
      if (v < 0) return 'negative';
      else if (v === 0) return 'zero';
      return 'positive';
    case 'string':
    case 'symbol':
      return 'texty';
    default:
      return 'other';
  }
}
function fall(n) {
  const seen = [];
  switch (n) {
    case 1: seen.push(1);
    case 2: seen.push(2); break;
    default: seen.push('d');
    case 3: seen.push(3);
  }
  return seen;
}
return [classify(-1), classify(0), classify(3), classify('s'), classify(null), fall(1), fall(2), fall(3), fall(9)];
