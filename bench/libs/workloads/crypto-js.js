// crypto-js: hashes, HMACs, AES-CBC with a fixed key and IV, a short PBKDF2 and Base64 over the
// 12 KB markdown document.
var CryptoJS = module.exports;

function main() {
  var text = INPUT["readme.md"];
  var key = CryptoJS.enc.Hex.parse("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f");
  var iv = CryptoJS.enc.Hex.parse("0f0e0d0c0b0a09080706050403020100");
  var encrypted = CryptoJS.AES.encrypt(text, key, { iv: iv });
  var decrypted = CryptoJS.AES.decrypt(encrypted, key, { iv: iv }).toString(CryptoJS.enc.Utf8);
  return {
    md5: CryptoJS.MD5(text).toString(),
    sha1: CryptoJS.SHA1(text).toString(),
    sha256: CryptoJS.SHA256(text).toString(),
    sha512: CryptoJS.SHA512(text).toString(),
    sha3: CryptoJS.SHA3(text, { outputLength: 256 }).toString(),
    hmac: CryptoJS.HmacSHA256(text, "secret").toString(CryptoJS.enc.Base64),
    aes: CryptoJS.enc.Base64.stringify(encrypted.ciphertext).slice(0, 200),
    roundTrip: decrypted === text,
    pbkdf2: CryptoJS.PBKDF2("password", "salt", { keySize: 8, iterations: 50, hasher: CryptoJS.algo.SHA256 }).toString(),
    base64: CryptoJS.enc.Base64.stringify(CryptoJS.enc.Utf8.parse(text.slice(0, 600))),
  };
}
