/**
 * The checks every request passes before anything else: the Host header must name
 * this server as it was bound (the DNS-rebinding guard), and an `Origin`, when one is
 * sent, must be the server's own.
 *
 * @module
 */
import type { MiddlewareHandler } from "hono";
import { transportError } from "./_http.ts";

/** Where the server listens, as the Host guard needs to know it. */
export interface BoundAddress {
  /** The hostname the server was bound to (`127.0.0.1` unless `--host` said otherwise). */
  hostname: string;
  /** The bound port (the real one, after `--port 0` picked it). */
  port: number;
  /** More hostnames clients may use to reach a non-loopback bind (a LAN name). */
  extraHostnames?: readonly string[];
}

/** The loopback names a local server always answers to. */
export const LOOPBACK_HOSTNAMES: readonly string[] = ["127.0.0.1", "localhost", "::1"];

/**
 * Formats `hostname:port` as a Host header carries it (IPv6 in brackets).
 *
 * @param hostname a name or an IP address
 * @param port the port
 * @returns e.g. `127.0.0.1:7420` or `[::1]:7420`
 */
export function formatHostHeader(hostname: string, port: number): string {
  const name = hostname.includes(":") && !hostname.startsWith("[") ? `[${hostname}]` : hostname;
  return `${name}:${port}`.toLowerCase();
}

/**
 * The Host header values this server accepts: each loopback name and the bound (and
 * extra) hostnames with the bound port; on port 80 also without it, as browsers send.
 *
 * @param bound where the server listens
 * @returns the accepted values, lowercase
 */
export function allowedHostHeaders(bound: BoundAddress): ReadonlySet<string> {
  const names = new Set([...LOOPBACK_HOSTNAMES, bound.hostname, ...(bound.extraHostnames ?? [])]);
  const allowed = new Set<string>();
  for (const name of names) {
    const withPort = formatHostHeader(name, bound.port);
    allowed.add(withPort);
    if (bound.port === 80) allowed.add(withPort.slice(0, withPort.lastIndexOf(":")));
  }
  return allowed;
}

/**
 * Middleware refusing every request whose Host header is not one of `allowed` with
 * 421 `host_not_allowed`: a page on a rebound DNS name reaches the socket but not us.
 *
 * @param allowed the accepted Host values (lowercase), or a function returning them
 * @returns the middleware
 */
export function hostGuard(
  allowed: ReadonlySet<string> | (() => ReadonlySet<string>),
): MiddlewareHandler {
  const current = typeof allowed === "function" ? allowed : () => allowed;
  return async (c, next) => {
    const host = c.req.header("host")?.toLowerCase();
    if (host === undefined || !current().has(host)) {
      return transportError(421, "host_not_allowed", "This server does not answer to that Host");
    }
    await next();
  };
}

/** What a request's `Origin` says about it. */
export type OriginCheck = "absent" | "same" | "foreign";

/**
 * Compares a request's `Origin` with the server's own origin as the request reached
 * it (`http://` + the Host header, which the Host guard already accepted).
 *
 * @param origin the `Origin` header, if any
 * @param host the `Host` header
 * @returns `absent` (no header: not a browser, or a same-origin GET), `same` or `foreign`
 */
export function checkOrigin(origin: string | undefined, host: string | undefined): OriginCheck {
  if (origin === undefined) return "absent";
  if (host === undefined) return "foreign";
  return origin.toLowerCase() === `http://${host.toLowerCase()}` ? "same" : "foreign";
}
