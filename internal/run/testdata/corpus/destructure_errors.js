const out = [];
try { const { a } = null; } catch (e) { out.push(e.name); }
try { const [x] = {}; } catch (e) { out.push(e.name); }
try { const { a: { b } } = {}; } catch (e) { out.push(e.name); }
return out;
