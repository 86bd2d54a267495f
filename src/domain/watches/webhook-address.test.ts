import { describe, expect, it } from "vitest";
import { blockedAddressReason, literalAddress } from "./webhook-address.js";

describe("webhook address classes", () => {
  it.each([
    ["127.0.0.1", "loopback"],
    ["::1", "loopback"],
    ["10.1.2.3", "private"],
    ["172.16.0.9", "private"],
    ["192.168.1.1", "private"],
    ["fd00::1", "private"],
    ["169.254.169.254", "link-local"],
    ["fe80::1", "link-local"],
    ["100.64.0.1", "carrier-grade NAT"],
    ["192.0.2.1", "documentation"],
    ["198.51.100.7", "documentation"],
    ["203.0.113.9", "documentation"],
    ["2001:db8::1", "documentation"],
    ["::ffff:127.0.0.1", "an IPv4-mapped address carrying 127.0.0.1 (a loopback address)"],
    ["::ffff:8.8.8.8", "an IPv4-mapped address carrying 8.8.8.8,"],
    ["::7f00:1", "an IPv4-compatible address carrying 127.0.0.1 (a loopback address)"],
    ["::808:808", "an IPv4-compatible address carrying 8.8.8.8,"],
    ["::ffff:0:a00:1", "an IPv4-translated address carrying 10.0.0.1 (a private address)"],
    ["64:ff9b::a9fe:a9fe", "a NAT64 (IPv4-embedded) address carrying 169.254.169.254 (a link-local address)"],
    ["2002:c0a8:101::1", "a 6to4 address carrying 192.168.1.1 (a private address)"],
    ["2001:0:4136:e378:8000:63bf:80ff:fffe", "a Teredo address carrying 127.0.0.1 (a loopback address)"],
    ["0.0.0.0", "an unspecified address"],
  ])("refuses %s (%s)", (address, what) => {
    expect(blockedAddressReason(address)).toContain(what);
  });

  it("lets public unicast addresses through", () => {
    expect(blockedAddressReason("8.8.8.8")).toBeUndefined();
    expect(blockedAddressReason("2606:4700:4700::1111")).toBeUndefined();
  });

  it("reads IP literals out of URL hosts", () => {
    expect(literalAddress("[::1]")).toBe("::1");
    expect(literalAddress("10.0.0.1")).toBe("10.0.0.1");
    expect(literalAddress("hooks.example.com")).toBeUndefined();
  });
});
