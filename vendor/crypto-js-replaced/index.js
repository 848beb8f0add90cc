"use strict";
/* global module */
// A stand-in for crypto-js (see package.json): loading it is harmless, using it is a mistake.
function refused() {
  throw new Error("crypto-js is not installed: the sign-in link's cipher is Node's crypto (app/modules/auth/tokens.server.ts, ADR 027)");
}
module.exports = { AES: { encrypt: refused, decrypt: refused }, enc: { Utf8: { stringify: refused, parse: refused } } };
