return { u: undefined, nan: NaN, inf: Infinity, date: new Date(Date.UTC(2000, 0, 1)), list: [undefined, NaN], nested: { toJSON() { return 'via toJSON'; } } };
