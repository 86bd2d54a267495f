import { createHash, randomBytes } from "node:crypto";

// Keys are random secrets shown once; only their SHA-256 is stored, with a
// short prefix to recognise a key in listings. A lost key is rotated, not recovered.

const KEY_PREFIX = "nk_";

export function generateKey(): { key: string; prefix: string } {
  const key = KEY_PREFIX + randomBytes(32).toString("base64url");
  return { key, prefix: key.slice(0, KEY_PREFIX.length + 8) };
}

export function hashKey(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

export function generateKeyId(): string {
  return `key_${randomBytes(8).toString("hex")}`;
}
