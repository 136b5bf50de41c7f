const d = new Date(Date.UTC(2024, 1, 29, 13, 45, 30, 123));
return [d.toISOString(), d.getTime(), d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), d.getUTCDay(), d.getUTCHours(), d.getUTCMilliseconds(), JSON.stringify({ d }), d.valueOf() === +d];
