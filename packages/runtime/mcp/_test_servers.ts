/**
 * The MCP servers the tests run: the reference servers installed from npm (spawned with
 * `node` from their installed entry point: no network), the tiny paginated server written
 * for the tests, and server-everything over Streamable HTTP forced onto 127.0.0.1.
 *
 * @module
 */
import { fileURLToPath as fromFileUrl } from "node:url";

const root = new URL("../../../", import.meta.url);

/** server-everything's installed entry point. */
export const EVERYTHING_ENTRY = fromFileUrl(
  new URL("node_modules/@modelcontextprotocol/server-everything/dist/index.js", root),
);
/** server-filesystem's installed entry point. */
export const FILESYSTEM_ENTRY = fromFileUrl(
  new URL("node_modules/@modelcontextprotocol/server-filesystem/dist/index.js", root),
);
/** The paginated test server (`testdata/paginated_server.mjs`). */
export const PAGINATED_SERVER = fromFileUrl(
  new URL("./testdata/paginated_server.mjs", import.meta.url),
);
const FORCE_LOOPBACK = fromFileUrl(new URL("./testdata/force_loopback.cjs", import.meta.url));

/** A running HTTP server-everything. */
export interface HttpEverything extends AsyncDisposable {
  /** Its endpoint (`http://127.0.0.1:<port>/mcp`). */
  readonly url: string;
}

/** A free loopback port (free when asked: another process may take it meanwhile). */
export function freeLoopbackPort(): number {
  const probe = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (probe.addr as Deno.NetAddr).port;
  probe.close();
  return port;
}

/**
 * Starts server-everything over Streamable HTTP on a loopback port.
 *
 * @param port the port (a free one by default; a test restarting a server passes its old one)
 * @returns its endpoint; dispose to stop it
 */
export async function startHttpEverything(
  port: number = freeLoopbackPort(),
): Promise<HttpEverything> {
  const child = new Deno.Command("node", {
    args: ["--require", FORCE_LOOPBACK, EVERYTHING_ENTRY, "streamableHttp"],
    env: { PORT: String(port) },
    stdout: "null",
    stderr: "null",
    detached: true,
  }).spawn();
  const url = `http://127.0.0.1:${port}/mcp`;
  const deadline = Date.now() + 15_000;
  for (;;) {
    try {
      const connection = await Deno.connect({ hostname: "127.0.0.1", port });
      connection.close();
      break;
    } catch (error) {
      if (Date.now() > deadline) {
        child.kill("SIGKILL");
        throw new Error(`server-everything did not listen on ${port}: ${error}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  return {
    url,
    async [Symbol.asyncDispose]() {
      try {
        Deno.kill(-child.pid, "SIGKILL");
      } catch {
        // gone already
      }
      await child.status;
    },
  };
}
