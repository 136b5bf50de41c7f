const out = [btoa('hello'), atob('aGVsbG8='), btoa(''), atob('YQ')];
try { btoa('é😀'); } catch (e) { out.push(e.name); }
return out;
