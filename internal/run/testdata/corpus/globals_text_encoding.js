const enc = new TextEncoder().encode('héllo 😀');
const dec = new TextDecoder().decode(new TextEncoder().encode('hé and ✓'));
return [Array.from(enc), enc.length, dec, new TextEncoder().encoding, new TextDecoder().encoding];
