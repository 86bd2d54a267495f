import ipaddr from "ipaddr.js";

// Webhooks go to public hosts only (spec 02, Webhook delivery, rule 1):
// loopback, private, link-local, carrier-grade NAT, documentation, IPv4-mapped
// and every other special-purpose address are refused. ipaddr.js knows the
// registries' ranges; only its `unicast` class (the public internet) passes.

/** Why an address may not receive webhooks; undefined when it is a public unicast address. */
export function blockedAddressReason(address: string): string | undefined {
  if (!ipaddr.isValid(address)) return `${address} is not an IP address`;
  const parsed = ipaddr.parse(address);
  const range = parsed.range();
  if (range === "unicast") return undefined;
  return `${address} is a ${RANGE_NAMES[range] ?? `${range} (special-purpose)`} address, not a public one`;
}

const RANGE_NAMES: Record<string, string> = {
  unspecified: "unspecified",
  broadcast: "broadcast",
  multicast: "multicast",
  linkLocal: "link-local",
  loopback: "loopback",
  carrierGradeNat: "carrier-grade NAT",
  private: "private",
  uniqueLocal: "private (unique local)",
  reserved: "documentation or reserved",
  ipv4Mapped: "IPv4-mapped",
  rfc6145: "IPv4-translated",
  rfc6052: "IPv4-embedded",
  "6to4": "6to4",
  teredo: "Teredo",
  benchmarking: "benchmarking",
};

/** A URL's host as an IP literal (brackets of IPv6 removed), or undefined when it is a name. */
export function literalAddress(hostname: string): string | undefined {
  const bare = hostname.startsWith("[") && hostname.endsWith("]") ? hostname.slice(1, -1) : hostname;
  return ipaddr.isValid(bare) ? bare : undefined;
}
