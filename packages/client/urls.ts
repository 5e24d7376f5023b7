/**
 * The runtime's endpoints, derived from its base URL.
 *
 * @module
 */

/**
 * The runtime's base URL as a URL ending in `/`, with query and fragment dropped
 * (a login URL carries a one-time code in its fragment, which must never be sent on).
 * `ws:`/`wss:` bases are accepted as their `http:`/`https:` equivalents.
 *
 * @param base e.g. `http://127.0.0.1:7420` or `http://127.0.0.1:7420/#code=…`
 * @returns the normalized base
 * @throws {TypeError} when `base` is not an absolute http(s) or ws(s) URL
 */
export function runtimeBaseUrl(base: string | URL): URL {
  const url = new URL(base);
  if (url.protocol === "ws:") url.protocol = "http:";
  else if (url.protocol === "wss:") url.protocol = "https:";
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new TypeError(`Runtime URL must be http(s) or ws(s), got ${url.protocol}`);
  }
  url.search = "";
  url.hash = "";
  if (!url.pathname.endsWith("/")) url.pathname += "/";
  return url;
}

/**
 * The WebSocket endpoint: `GET /ws` on the same host, `ws:` for `http:` and `wss:` for `https:`.
 *
 * @param base the runtime's base URL
 * @returns the `ws(s)://…/ws` URL
 */
export function webSocketUrl(base: string | URL): string {
  const url = new URL("ws", runtimeBaseUrl(base));
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  return url.href;
}

/**
 * The HTTP JSON-RPC endpoint, `POST /rpc`.
 *
 * @param base the runtime's base URL
 * @returns the `http(s)://…/rpc` URL
 */
export function httpRpcUrl(base: string | URL): string {
  return new URL("rpc", runtimeBaseUrl(base)).href;
}

/**
 * The attachment upload endpoint, `POST /upload`.
 *
 * @param base the runtime's base URL
 * @returns the `http(s)://…/upload` URL
 */
export function uploadUrl(base: string | URL): string {
  return new URL("upload", runtimeBaseUrl(base)).href;
}
