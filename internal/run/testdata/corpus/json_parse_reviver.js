const text = '{"a":1,"b":[1,2,{"c":"d"}],"date":"2024-01-02T03:04:05.000Z","n":null,"big":1e400,"esc":"\\u00e9\\n"}';
const plain = JSON.parse(text);
const revived = JSON.parse(text, (k, v) => k === 'date' ? new Date(v).getUTCFullYear() : typeof v === 'number' ? v + 1 : v);
const keys = [];
JSON.parse('{"x":{"y":1},"z":[2]}', function (k, v) { keys.push(k); return v; });
const errs = [];
for (const bad of ['{a:1}', "{'a':1}", '[1,]', '', '01']) { try { JSON.parse(bad); } catch (e) { errs.push(e.name); } }
return [plain, revived, keys, errs, JSON.parse('"str"'), JSON.parse(' [1, 2] ')];
