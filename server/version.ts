// Version facts reported by GET /version. Clients of the interface read the 3.x-style
// product version from between the first and last "_" of a component tag, so the tags
// carry a 3.x compatibility level next to our own version.

/** Interface level we implement; 3.x clients then pick the 3.x GSQL endpoints. */
export const COMPAT_VERSION = "3.9.3";
export const PRODUCT_VERSION = COMPAT_VERSION;
export const EDITION = "wasmgraph";

const BUILD_STAMP = "2026-11-22 00:00:00 +0000";

export function componentVersionLines(): string[] {
  const tag = `wg_${COMPAT_VERSION}_release`;
  return ["product", "restpp", "gsql", "gpe", "compiler", "runtime_wasm"].map(
    (name) => `${name.padEnd(14)}${tag}  0000000000000000000000000000000000000000  ${BUILD_STAMP}`,
  );
}
