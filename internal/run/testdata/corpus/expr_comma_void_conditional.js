let i = 0;
const r = (i++, i++, i);
const v = void 'ignored';
const nested = i > 1 ? (i > 5 ? 'big' : 'medium') : 'small';
return [r, v === undefined, nested];
