import { invalidParameter, type ApiError } from "../../shared/api-error.js";
import { blockedAddressReason, literalAddress } from "./webhook-address.js";

/**
 * A webhook URL as far as it can be checked without the network: https, no
 * credentials, and a host that is a name or a public address. A host name is
 * resolved and checked at creation and at every delivery (WebhookSender).
 */
export function parseWebhookUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    throw invalidUrl(`'webhook_url' is not a URL: expected an https URL on a public host.`);
  }
  if (url.protocol !== "https:") throw invalidUrl(`'webhook_url' must use https, not ${url.protocol.replace(":", "")}.`);
  if (url.username !== "" || url.password !== "")
    throw invalidUrl("'webhook_url' must not carry credentials; authenticate deliveries by their signature.");
  const literal = literalAddress(url.hostname);
  if (literal !== undefined) {
    const reason = blockedAddressReason(literal);
    if (reason !== undefined) throw invalidUrl(`'webhook_url' is refused: ${reason}. Webhooks go to public hosts only.`);
  }
  return url;
}

export function invalidUrl(detail: string): ApiError {
  return invalidParameter("webhook_url", detail);
}
