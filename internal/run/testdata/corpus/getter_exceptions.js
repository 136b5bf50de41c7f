const o = { get bad() { throw new Error('getter threw'); }, get ok() { return 'fine'; } };
const out = [o.ok];
try { o.bad; } catch (e) { out.push(e.message); }
try { JSON.stringify(o); } catch (e) { out.push('stringify: ' + e.message); }
try { ({ ...o }); } catch (e) { out.push('spread: ' + e.message); }
return out;
