const out = [];
try { new RegExp('('); } catch (e) { out.push(e.name); }
try { new RegExp('a', 'gg'); } catch (e) { out.push(e.name); }
out.push(/[/]/.test('/'));
return out;
