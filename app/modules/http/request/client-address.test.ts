import { describe, expect, it } from "vitest";
import { addressGroup } from "./client-address";

describe("the client address a per-address limit counts", () => {
  it("keeps an IPv4 address, also when written as IPv6", () => {
    expect(addressGroup("198.51.100.23")).toBe("198.51.100.23");
    expect(addressGroup("::ffff:198.51.100.23")).toBe("198.51.100.23");
    expect(addressGroup("::FFFF:127.0.0.1")).toBe("127.0.0.1");
  });

  it("counts an IPv6 address by its /64 network, however it is written", () => {
    const group = "2001:db8:85a3:8d3::/64";
    expect(addressGroup("2001:db8:85a3:8d3:1319:8a2e:370:7348")).toBe(group);
    expect(addressGroup("2001:0db8:85a3:08d3:ffff:ffff:ffff:ffff")).toBe(group);
    expect(addressGroup("2001:DB8:85A3:8D3::1")).toBe(group);
    expect(addressGroup("2001:db8:85a3:8d3::1%eth0")).toBe(group);
    expect(addressGroup("2001:db8:85a3:8d4::1")).not.toBe(group);
    expect(addressGroup("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(addressGroup("::1")).toBe("0:0:0:0::/64");
    expect(addressGroup("64:ff9b::198.51.100.23")).toBe("64:ff9b:0:0::/64");
  });

  it("counts anything else as given", () => {
    expect(addressGroup("unknown")).toBe("unknown");
    expect(addressGroup("1:2:3")).toBe("1:2:3");
    expect(addressGroup("1::2::3")).toBe("1::2::3");
    expect(addressGroup("2001:db8::zzzz")).toBe("2001:db8::zzzz");
  });
});
