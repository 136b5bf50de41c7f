const d = new Date(Date.UTC(2024, 0, 31));
d.setUTCMonth(1);
const e = new Date(Date.UTC(2023, 11, 31, 23, 59, 59));
e.setUTCSeconds(e.getUTCSeconds() + 1);
const diffDays = (Date.UTC(2024, 11, 25) - Date.UTC(2024, 0, 1)) / 86400000;
const f = new Date(Date.UTC(2020, 0, 1));
f.setUTCDate(0);
return [d.toISOString(), e.toISOString(), diffDays, f.toISOString(), Date.UTC(2024, 0), new Date(2024, 0, 1, 12).toISOString()];
