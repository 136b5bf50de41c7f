const out = [];
try { t; } catch (e) { out.push(e instanceof ReferenceError); }
let t = 1;
out.push(t);
function useLater() { return later; }
try { useLater(); } catch (e) { out.push(e.name); }
const later = 5;
out.push(useLater());
return out;
