import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from "node:crypto";

// Console passwords are kept as scrypt hashes with their parameters and salt,
// `scrypt$N$r$p$salt$hash` (base64url), so the cost can be raised later
// without breaking the hashes already stored.

const COST = { N: 16_384, r: 8, p: 1 };
const KEY_LENGTH = 32;

function derive(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password.normalize("NFKC"), salt, KEY_LENGTH, { ...options, maxmem: 64 * 1024 * 1024 }, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, COST);
  return ["scrypt", COST.N, COST.r, COST.p, salt.toString("base64url"), key.toString("base64url")].join("$");
}

/** True when `password` hashes to `stored`; false for any other password or a hash of another format. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split("$");
  if (scheme !== "scrypt" || !salt || !hash) return false;
  const expected = Buffer.from(hash, "base64url");
  const key = await derive(password, Buffer.from(salt, "base64url"), { N: Number(n), r: Number(r), p: Number(p) });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** A one-time password, printed once: 20 random characters. */
export function generatePassword(): string {
  return randomBytes(15).toString("base64url");
}

/** Spends the same time as a verification, so an unknown email is not told apart from a wrong password by timing. */
export async function verifyNothing(password: string): Promise<false> {
  await derive(password, Buffer.alloc(16), COST);
  return false;
}
