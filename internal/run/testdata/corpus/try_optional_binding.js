let r = 'none';
try { JSON.parse('{bad'); } catch { r = 'caught'; }
let nested;
try {
  try { throw new TypeError('inner'); }
  finally { nested = 'inner finally'; }
} catch (e) { nested += ' / ' + e.name + ': ' + e.message; }
return [r, nested];
