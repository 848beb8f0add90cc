import { describe, expect, it } from "vitest";
import { openPassphraseToken } from "./tokens.server";

// Written by `openssl enc -aes-256-cbc -md md5 -salt -pass pass:link-secret -base64`: the format the
// e-mail-link strategy writes its tokens in.
const TOKEN = "U2FsdGVkX19LZnnRtfRQbhc6nTRzM7W/VC/u/ocu/mkG/l/H9BJUeVTsexMuwxNK/fEzLZ6ws1G7+ZnEQ3BCHAbeu/onfeY2RCK/sjI9jC4=";

describe("a sign-in link's token", () => {
  it("opens with its passphrase", () => {
    expect(JSON.parse(openPassphraseToken(TOKEN, "link-secret") ?? "null")).toEqual({ e: "doctor@clinic.test", f: { link: "abc" }, c: 1795000000000 });
  });

  it("opens to nothing with another passphrase, cut short or forged", () => {
    expect(openPassphraseToken(TOKEN, "another-secret")).toBeNull();
    expect(openPassphraseToken(TOKEN.slice(0, 40), "link-secret")).toBeNull();
    expect(openPassphraseToken("not a token at all", "link-secret")).toBeNull();
    expect(openPassphraseToken(Buffer.from("Salted__12345678").toString("base64"), "link-secret")).toBeNull();
  });
});
