const r = await tools.echo({ u: undefined, f() {}, nan: NaN, inf: -Infinity, date: new Date(Date.UTC(2024, 0, 15, 10, 30)), arr: [undefined, () => 1, NaN], map: new Map([[1, 2]]), toj: { toJSON() { return 'custom'; } } });
return r;
