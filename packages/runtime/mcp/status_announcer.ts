/**
 * Journals `mcp.status_changed` when what a client shows of a server changes (its state,
 * message or number of offered tools): the event carries that summary only, and clients
 * read the rest with `mcp.list`. Unchanged repeats are not journaled, and nothing is after
 * {@linkcode McpStatusAnnouncer.close} (the store closes right after the servers stop).
 *
 * @module
 */
import type { StateStore } from "@daedalus/storage";
import type { McpServerView } from "./mcp_servers.ts";

/** Journals the servers' status changes. */
export class McpStatusAnnouncer {
  readonly #store: StateStore;
  readonly #last = new Map<string, string>();
  #closed = false;

  /**
   * @param store the state store the events go to
   */
  constructor(store: StateStore) {
    this.#store = store;
  }

  /**
   * Journals a server's summary when it differs from the last one journaled.
   *
   * @param name the server's name
   * @param view the server now, or null when it was removed
   */
  announce(name: string, view: McpServerView | null): void {
    if (this.#closed) return;
    const server = {
      name,
      state: view?.status.state ?? "disabled",
      message: view?.status.message ?? null,
      toolCount: view?.tools.filter((tool) => tool.enabled && tool.modelName !== null).length ?? 0,
      removed: view === null,
    };
    const key = JSON.stringify(server);
    if (this.#last.get(name) === key) return;
    this.#last.set(name, key);
    try {
      this.#store.write(({ append }) =>
        append({ type: "mcp.status_changed", payload: { server } })
      );
    } catch (error) {
      console.error(`mcp ${name}: cannot journal its status: ${(error as Error).message}`);
    }
  }

  /** Stops journaling (the runtime is shutting down). */
  close(): void {
    this.#closed = true;
  }
}
