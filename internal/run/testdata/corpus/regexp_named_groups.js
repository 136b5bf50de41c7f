const re = /(?<year>\d{4})-(?<month>\d{2})/u;
const m = re.exec('on 2023-07 and');
const swapped = '2023-07'.replace(re, '$<month>/$<year>');
const fn = '2023-07'.replace(re, (...args) => JSON.stringify(args.at(-1)));
return [m.groups.year, m.groups.month, swapped, fn, Object.keys(m.groups)];
