// Making and checking credentials. Passwords are hashed with scrypt (Node's crypto), a salt
// per hash and the cost stored with it; checks compare in constant time. Secrets and tokens
// are long random strings (about 165 bits), so a SHA-256 digest is enough to store them by:
// the digest finds them, and nothing that can be turned back into one is ever kept.
import { createHash, randomBytes, randomInt, scrypt, timingSafeEqual } from "node:crypto";
import type { PasswordHash } from "./auth-state.js";

/** scrypt cost: N (a power of two), block size r, parallelism p. */
export interface ScryptCost {
  N: number;
  r: number;
  p: number;
}

/** The default: one of the settings OWASP lists for scrypt (32 MiB, about 0.1–0.3 s on a laptop core). */
export const DEFAULT_SCRYPT_COST: ScryptCost = { N: 2 ** 15, r: 8, p: 3 };

/** Bounds on costs read back from the state, so a damaged record cannot make a check run for minutes. */
const MAX_N = 2 ** 20;
const MAX_R = 32;
const MAX_P = 16;
const KEY_BYTES = 32;
const SALT_BYTES = 16;

/** Secrets and tokens: lower-case letters and digits, starting with a letter (a GSQL name). */
export const CREDENTIAL_LENGTH = 32;
const ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";

export function checkScryptCost(cost: ScryptCost): string | undefined {
  const { N, r, p } = cost;
  if (!Number.isInteger(N) || N < 2 || N > MAX_N || (N & (N - 1)) !== 0) return `scrypt N must be a power of two between 2 and ${MAX_N}`;
  if (!Number.isInteger(r) || r < 1 || r > MAX_R) return `scrypt r must be an integer between 1 and ${MAX_R}`;
  if (!Number.isInteger(p) || p < 1 || p > MAX_P) return `scrypt p must be an integer between 1 and ${MAX_P}`;
  return undefined;
}

function scryptKey(password: string, salt: Buffer, cost: ScryptCost): Promise<Buffer> {
  const maxmem = 256 * cost.N * cost.r + 128 * cost.r * cost.p + (1 << 20);
  return new Promise((resolve, reject) => {
    scrypt(password.normalize("NFC"), salt, KEY_BYTES, { N: cost.N, r: cost.r, p: cost.p, maxmem }, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

export async function hashPassword(password: string, cost: ScryptCost = DEFAULT_SCRYPT_COST): Promise<PasswordHash> {
  const problem = checkScryptCost(cost);
  if (problem) throw new Error(problem);
  const salt = randomBytes(SALT_BYTES);
  const key = await scryptKey(password, salt, cost);
  return { scheme: "scrypt", N: cost.N, r: cost.r, p: cost.p, salt: salt.toString("base64"), hash: key.toString("base64") };
}

/** Whether `password` matches `stored`, compared in constant time. */
export async function verifyPassword(password: string, stored: PasswordHash): Promise<boolean> {
  if (stored.scheme !== "scrypt" || checkScryptCost(stored) !== undefined) return false;
  const expected = Buffer.from(stored.hash, "base64");
  if (expected.length !== KEY_BYTES) return false;
  const key = await scryptKey(password, Buffer.from(stored.salt, "base64"), stored);
  return timingSafeEqual(key, expected);
}

/** A random string of `length` characters of ALPHABET (no modulo bias), starting with a letter. */
export function randomCredential(length = CREDENTIAL_LENGTH): string {
  let out = ALPHABET[randomInt(26)]!;
  while (out.length < length) {
    for (const byte of randomBytes(length)) {
      if (byte >= 252) continue; // 252 = 7 * 36: keeps every character equally likely
      out += ALPHABET[byte % 36];
      if (out.length === length) break;
    }
  }
  return out;
}

/** The alias CREATE SECRET gives when none is written: AUTO_GENERATED_ALIAS_ and 7 characters. */
export function generatedAlias(): string {
  return "AUTO_GENERATED_ALIAS_" + randomCredential(7);
}

/** SHA-256 of a secret or token, hex: how the state refers to it. */
export function credentialDigest(value: string): string {
  return createHash("sha256").update(value, "utf8").digest("hex");
}

/** Constant-time equality of two hex digests of the same length. */
export function sameDigest(a: string, b: string): boolean {
  const x = Buffer.from(a, "hex");
  const y = Buffer.from(b, "hex");
  return x.length === y.length && x.length > 0 && timingSafeEqual(x, y);
}

/** SHOW SECRET's form: the first and last three characters around `****`. */
export function maskCredential(value: string): string {
  return value.length <= 6 ? "****" : `${value.slice(0, 3)}****${value.slice(-3)}`;
}

/** A string shaped like a credential we issue (letters and digits only); anything else is never one. */
export function looksLikeCredential(value: string): boolean {
  return value.length === CREDENTIAL_LENGTH && /^[a-z0-9]+$/.test(value);
}
