/**
 * Serves the built PWA from a directory: files by path, `index.html` for `/` and for
 * any extension-less path the app routes itself. Paths are resolved inside the root
 * (after following links), so `..` and symlinks cannot leave it. Every file goes out with
 * the security headers of `security_headers.ts` (CSP, no framing, no referrer).
 *
 * Where the build is ({@linkcode findBuiltApp}) is one lookup for both ways the runtime
 * runs: `deno run` from a checkout, and the executable `deno task compile` makes.
 *
 * @module
 */
import type { Handler } from "hono";
import { extname, join, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { transportError } from "./_http.ts";
import { appSecurityHeaders } from "./security_headers.ts";

/**
 * The built PWA, `app/dist`, named relative to this module. Under `deno run` it is the
 * checkout's folder. `deno task compile` embeds it with `--include app/dist`, and an
 * executable's embedded files keep their layout relative to its modules (whose
 * `import.meta.url` points into the embedded file system), so the same URL names the
 * embedded copy: there is no second code path to keep working.
 */
export const BUILT_APP_URL: URL = new URL("../../../app/dist/", import.meta.url);

/**
 * The built PWA's folder, when it holds a build.
 *
 * @param url the folder as a file URL (default {@linkcode BUILT_APP_URL})
 * @returns its path, or `undefined` when it has no `index.html` (never built, or a
 *   build that failed half-way) or cannot be read
 */
export async function findBuiltApp(url: URL = BUILT_APP_URL): Promise<string | undefined> {
  const path = fileURLToPath(url);
  try {
    return (await Deno.stat(join(path, "index.html"))).isFile ? resolve(path) : undefined;
  } catch {
    // NotFound (no build) or NotCapable (no read permission there): nothing to serve.
    return undefined;
  }
}

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".webmanifest": "application/manifest+json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".webp": "image/webp",
  ".woff2": "font/woff2",
  ".txt": "text/plain; charset=utf-8",
  ".map": "application/json; charset=utf-8",
};

/**
 * A GET handler serving files under `root`.
 *
 * @param root the directory (e.g. `app/dist`)
 * @returns the handler; 404 JSON when nothing matches
 */
export function staticFilesHandler(root: string): Handler {
  const rootPath = resolve(root);
  return async (c) => {
    let pathname: string;
    try {
      pathname = decodeURIComponent(new URL(c.req.url).pathname);
    } catch {
      return notFound();
    }
    if (pathname.includes("\0")) return notFound();
    const wanted = pathname.endsWith("/") ? `${pathname}index.html` : pathname;
    const file = await openInside(rootPath, wanted) ??
      (extname(pathname) === "" ? await openInside(rootPath, "/index.html") : null);
    if (!file) return notFound();
    const type = CONTENT_TYPES[extname(file.path).toLowerCase()] ?? "application/octet-stream";
    const headers = {
      "content-type": type,
      "content-length": String(file.size),
      "cache-control": cacheControl(file.path, type),
      // The Host guard ran first, so this header names this server.
      ...appSecurityHeaders(c.req.header("host") ?? ""),
    };
    if (c.req.method === "HEAD") {
      file.handle.close(); // a HEAD body is never read, so the stream would never close it
      return new Response(null, { headers });
    }
    return new Response(file.handle.readable, { headers });
  };
}

async function openInside(
  rootPath: string,
  urlPath: string,
): Promise<{ handle: Deno.FsFile; path: string; size: number } | null> {
  const candidate = resolve(join(rootPath, urlPath));
  try {
    const [realRoot, realPath] = await Promise.all([
      Deno.realPath(rootPath),
      Deno.realPath(candidate),
    ]);
    if (!realPath.startsWith(realRoot + sep)) return null;
    const handle = await Deno.open(realPath, { read: true });
    const info = await handle.stat();
    if (info.isFile) return { handle, path: realPath, size: info.size };
    handle.close();
    return null;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory) {
      return null;
    }
    throw error;
  }
}

function notFound(): Response {
  return transportError(404, "not_found", "Not found");
}

/**
 * How long a file may be cached: hashed build assets forever, the page, the service
 * worker and the manifest never without revalidation (so an update reaches users),
 * anything else briefly.
 */
function cacheControl(path: string, type: string): string {
  const name = path.split(/[\\/]/).at(-1) ?? "";
  if (type.startsWith("text/html") || name === "sw.js" || name.endsWith(".webmanifest")) {
    return "no-cache";
  }
  if (/[/\\]assets[/\\]/.test(path) || /^workbox-[0-9a-f]+\.js$/.test(name)) {
    return "public, max-age=31536000, immutable";
  }
  return "public, max-age=300";
}
