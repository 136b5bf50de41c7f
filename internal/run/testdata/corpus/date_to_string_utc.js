const d = new Date(Date.UTC(2021, 6, 4, 9, 5, 3));
return [d.toUTCString(), d.toISOString(), d.toJSON(), d.getFullYear(), d.getMonth(), d.getHours(), d.getTimezoneOffset(), d.toString(), d.toDateString()];
