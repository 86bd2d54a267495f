import ipaddr from "ipaddr.js";

// Webhooks go to public hosts only (spec 02, Webhook delivery, rule 1):
// loopback, private, link-local, carrier-grade NAT, documentation, IPv4-mapped
// and every other special-purpose address are refused. ipaddr.js knows the
// registries' ranges; only its `unicast` class (the public internet) passes.
// IPv6 forms that carry an IPv4 address inside them (IPv4-compatible, mapped,
// translated, NAT64, 6to4, Teredo) are refused whatever they carry, and the
// detail names the address inside: each can lead back to an IPv4 host.

/** Why an address may not receive webhooks; undefined when it is a public unicast address. */
export function blockedAddressReason(address: string): string | undefined {
  if (!ipaddr.isValid(address)) return `${address} is not an IP address`;
  const parsed = ipaddr.parse(address);
  const range = parsed.kind() === "ipv6" && isIpv4Compatible(parsed as ipaddr.IPv6) ? "ipv4Compatible" : parsed.range();
  if (range === "unicast") return undefined;
  const inside = parsed.kind() === "ipv6" ? embeddedIpv4(parsed as ipaddr.IPv6, range) : undefined;
  const carrying = inside === undefined ? "" : ` carrying ${inside}${describeInside(inside)}`;
  return `${address} is ${RANGE_NAMES[range] ?? `a ${range} (special-purpose)`} address${carrying}, not a public one`;
}

/** Each range with its article: "an IPv4-mapped address", "a loopback address". */
const RANGE_NAMES: Record<string, string> = {
  unspecified: "an unspecified",
  broadcast: "a broadcast",
  multicast: "a multicast",
  linkLocal: "a link-local",
  loopback: "a loopback",
  carrierGradeNat: "a carrier-grade NAT",
  private: "a private",
  uniqueLocal: "a private (unique local)",
  reserved: "a documentation or reserved",
  ipv4Compatible: "an IPv4-compatible",
  ipv4Mapped: "an IPv4-mapped",
  rfc6145: "an IPv4-translated",
  rfc6052: "a NAT64 (IPv4-embedded)",
  "6to4": "a 6to4",
  teredo: "a Teredo",
  benchmarking: "a benchmarking",
  discard: "a discard-only",
  deprecatedSiteLocal: "a site-local (deprecated)",
  deprecatedOrchid: "an ORCHID",
  orchid2: "an ORCHIDv2",
  droneRemoteIdProtocolEntityTags: "a drone remote ID",
  amt: "an AMT",
  as112: "an AS112",
  as112v6: "an AS112",
};

/** `::a.b.c.d` (RFC 4291's deprecated IPv4-compatible form): ::/96 beyond `::` and `::1`, which ipaddr.js files as unicast. */
function isIpv4Compatible(address: ipaddr.IPv6): boolean {
  const parts = address.parts;
  return parts.slice(0, 6).every((p) => p === 0) && (parts[6] !== 0 || (parts[7] ?? 0) > 1);
}

/** The IPv4 address an IPv6 form carries: in its last 32 bits, bits 16 to 47 for 6to4, or the client (inverted) for Teredo. */
function embeddedIpv4(address: ipaddr.IPv6, range: string): string | undefined {
  const bytes = address.toByteArray();
  const at = (from: number, invert = false) =>
    bytes
      .slice(from, from + 4)
      .map((b) => (invert ? b ^ 0xff : b))
      .join(".");
  switch (range) {
    case "ipv4Compatible":
    case "ipv4Mapped":
    case "rfc6145":
    case "rfc6052":
      return at(12);
    case "6to4":
      return at(2);
    case "teredo":
      return at(12, true);
    default:
      return undefined;
  }
}

/** ", a loopback address" when the carried IPv4 address is itself not public. */
function describeInside(ipv4: string): string {
  const range = ipaddr.parse(ipv4).range();
  return range === "unicast" ? "" : ` (${RANGE_NAMES[range] ?? `a ${range}`} address)`;
}

/** A URL's host as an IP literal (brackets of IPv6 removed), or undefined when it is a name. */
export function literalAddress(hostname: string): string | undefined {
  const bare = hostname.startsWith("[") && hostname.endsWith("]") ? hostname.slice(1, -1) : hostname;
  return ipaddr.isValid(bare) ? bare : undefined;
}
