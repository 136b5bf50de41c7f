const wm = new WeakMap();
const ws = new WeakSet();
const k1 = {}, k2 = {};
wm.set(k1, 'one');
ws.add(k2);
const out = [wm.get(k1), wm.has(k2), ws.has(k2), ws.has(k1), wm.delete(k1), wm.has(k1)];
try { wm.set('str', 1); } catch (e) { out.push(e.name); }
return out;
