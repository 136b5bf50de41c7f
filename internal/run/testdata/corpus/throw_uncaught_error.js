console.log('before');
function deep() { throw new RangeError('out of range'); }
deep();
return 'unreachable';
