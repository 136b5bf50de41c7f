const e = new Error('msg');
e.code = 'E_CODE';
const props = Object.getOwnPropertyNames(e).filter(k => k !== 'stack').sort();
const plain = { ...e };
return [props, plain, e.toString(), Error.prototype.name, Error('called without new').message, typeof e.stack];
