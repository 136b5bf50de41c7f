interface Box { inner?: { value: number } }
const b: Box = {};
const v: number = b.inner!.value;
return v;
