// Webhook delivery over the network (spec 02, Webhook delivery). Resolve,
// check, pin: a host name is resolved once, every address it resolves to is
// checked against the address classes, and the connection goes to the
// checked address only, so a second lookup cannot be rebound inside the network.

export interface ResolvedTarget {
  address: string;
  family: 4 | 6;
}

export type Resolution = { ok: true; target: ResolvedTarget } | { ok: false; reason: string };

export type PostOutcome = { ok: true; status: number } | { ok: false; status?: number; error: string };

export interface WebhookSender {
  /** Resolves the URL's host; refused when it does not resolve or any of its addresses is not public. */
  resolve(url: URL): Promise<Resolution>;
  /** POSTs `body` to `url`, connected to `target` only; a 2xx is success, redirects are not followed. */
  post(url: URL, target: ResolvedTarget, body: string, headers: Record<string, string>): Promise<PostOutcome>;
}
