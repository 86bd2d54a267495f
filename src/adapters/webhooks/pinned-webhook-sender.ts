import { lookup as dnsLookup } from "node:dns/promises";
import type { LookupFunction } from "node:net";
import { rootCertificates } from "node:tls";
import { Agent, request } from "undici";
import { blockedAddressReason } from "../../domain/watches/webhook-address.js";
import type { PostOutcome, Resolution, ResolvedTarget, WebhookSender } from "../../ports/webhook-sender.js";

// Resolve, check, pin (spec 02, Webhook delivery, rule 1): the host is
// resolved once, every address it has must be public (one private address is
// enough to refuse: DNS answers can rotate), and the connection is made to
// the checked address through a lookup that answers only it, so no second
// resolution can be rebound inside the network. TLS still verifies the
// certificate against the host name.

export type Resolver = (hostname: string) => Promise<Array<{ address: string; family: number }>>;

/** Testing only (docs/operators.md): a host whose addresses are not checked and a CA its certificate is trusted from. */
export interface WebhookTestTrust {
  host: string;
  caPem: string;
}

export interface PinnedSenderOptions {
  timeoutMs?: number;
  resolver?: Resolver;
  testTrust?: WebhookTestTrust | undefined;
}

const systemResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

export class PinnedWebhookSender implements WebhookSender {
  private readonly timeoutMs: number;
  private readonly resolver: Resolver;
  private readonly testTrust: WebhookTestTrust | undefined;

  constructor(options: PinnedSenderOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.resolver = options.resolver ?? systemResolver;
    this.testTrust = options.testTrust;
  }

  async resolve(url: URL): Promise<Resolution> {
    const host = bare(url.hostname);
    let addresses: Array<{ address: string; family: number }>;
    try {
      addresses = await this.resolver(host);
    } catch (error) {
      // Any lookup failure (no such name, no answer, a resolver down) is one refusal, said to the caller; the
      // resolver's own words stay out of it (they would tell a caller about this server's network).
      if (!(error instanceof Error)) throw error;
      return { ok: false, reason: `${host} does not resolve` };
    }
    if (addresses.length === 0) return { ok: false, reason: `${host} does not resolve` };
    if (!this.isTrustedTestHost(url)) {
      for (const { address } of addresses) {
        const reason = blockedAddressReason(address);
        if (reason !== undefined) return { ok: false, reason: host === address ? reason : `${host} resolves to ${reason}` };
      }
    }
    // Every address was checked; IPv4 first, as most receivers listen on it.
    const first = (addresses.find((a) => a.family === 4) ?? addresses[0]) as { address: string; family: number };
    return { ok: true, target: { address: first.address, family: first.family === 6 ? 6 : 4 } };
  }

  async post(url: URL, target: ResolvedTarget, body: string, headers: Record<string, string>): Promise<PostOutcome> {
    const agent = new Agent({
      connect: {
        lookup: pinnedLookup(target),
        timeout: this.timeoutMs,
        ...(this.isTrustedTestHost(url) ? { ca: [...rootCertificates, (this.testTrust as WebhookTestTrust).caPem] } : {}),
      },
      headersTimeout: this.timeoutMs,
      bodyTimeout: this.timeoutMs,
    });
    try {
      const response = await request(url, {
        method: "POST",
        dispatcher: agent,
        headers: { "content-type": "application/json", "user-agent": "NewsIndex-Webhooks", ...headers },
        body,
      });
      // The receiver's answer is not read beyond its status.
      await response.body.dump();
      const ok = response.statusCode >= 200 && response.statusCode < 300;
      return ok
        ? { ok: true, status: response.statusCode }
        : { ok: false, status: response.statusCode, error: `HTTP ${response.statusCode}` };
    } catch (error) {
      return { ok: false, error: error instanceof Error ? `${error.name}: ${error.message}` : "delivery failed" };
    } finally {
      await agent.close().catch(() => undefined);
    }
  }

  private isTrustedTestHost(url: URL): boolean {
    return this.testTrust !== undefined && bare(url.hostname) === this.testTrust.host;
  }
}

/** A lookup that answers the checked address, whatever it is asked. */
function pinnedLookup(target: ResolvedTarget): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
}

function bare(hostname: string): string {
  return hostname.startsWith("[") && hostname.endsWith("]") ? hostname.slice(1, -1) : hostname;
}
