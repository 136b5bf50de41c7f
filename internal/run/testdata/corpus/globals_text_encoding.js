const enc = new TextEncoder().encode('héllo 😀');
const dec = new TextDecoder().decode(new Uint8Array([104, 195, 169]));
return [Array.from(enc), enc.length, dec];
