// Reading the Authorization header both servers accept: `Bearer <token>`, or `Basic
// base64(user:password)` (the shell sends the user name URL-encoded; curl -u does not).
// Anything else is malformed. Parsing never throws, whatever the header holds.

export type AuthorizationHeader =
  | { scheme: "none" }
  | { scheme: "bearer"; token: string }
  | { scheme: "basic"; user: string; password: string }
  | { scheme: "malformed" };

/** Longer headers are refused outright (Node's own limit is 16 KiB for all headers). */
const MAX_HEADER_LENGTH = 8192;

export function parseAuthorization(header: string | undefined): AuthorizationHeader {
  if (header === undefined || header.trim() === "") return { scheme: "none" };
  if (header.length > MAX_HEADER_LENGTH) return { scheme: "malformed" };
  const match = /^\s*([A-Za-z]+)(?:\s+(.*))?$/s.exec(header);
  if (!match) return { scheme: "malformed" };
  const scheme = match[1]!.toLowerCase();
  const value = (match[2] ?? "").trim();
  if (scheme === "bearer") return { scheme: "bearer", token: value };
  if (scheme === "basic") return decodeBasic(value) ?? { scheme: "malformed" };
  return { scheme: "malformed" };
}

/** base64 `user:password`; the user part is URL-decoded when it is valid URL encoding. */
export function decodeBasic(value: string): { scheme: "basic"; user: string; password: string } | undefined {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(value)) return undefined;
  const text = Buffer.from(value, "base64").toString("utf8");
  const colon = text.indexOf(":");
  if (colon <= 0) return undefined;
  const raw = text.slice(0, colon);
  let user = raw;
  try {
    user = decodeURIComponent(raw);
  } catch {
    user = raw;
  }
  return { scheme: "basic", user, password: text.slice(colon + 1) };
}
