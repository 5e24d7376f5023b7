/**
 * Transactions on one synchronous node:sqlite connection, shared by state.db and
 * memory.db: `BEGIN IMMEDIATE` for writes, plain `BEGIN` for read snapshots, nested
 * writes as savepoints (a nested failure the outer callback catches undoes only the
 * nested work), and a refusal of callbacks that return a promise (the commit would
 * otherwise run before the awaited work).
 *
 * @module
 */
import type { DatabaseSync } from "node:sqlite";

/** What a connection's owner keeps in memory about its rows learns from its transactions. */
export interface TransactionHooks {
  /** After an outermost `BEGIN`: other connections may have committed since the last one. */
  onBegin?: () => void;
  /** A transaction or savepoint failed (rolled back or not): its writes are gone. */
  onRollback?: () => void;
}

/** Runs synchronous transactions on one connection. */
export class ConnectionTransactions {
  readonly #connection: DatabaseSync;
  readonly #onAsync: () => Error;
  readonly #hooks: TransactionHooks;
  #depth = 0;

  /**
   * @param connection the connection
   * @param onAsync the error to throw when a callback returns a promise
   * @param hooks told when an outermost transaction begins and when any fails
   */
  constructor(connection: DatabaseSync, onAsync: () => Error, hooks: TransactionHooks = {}) {
    this.#connection = connection;
    this.#onAsync = onAsync;
    this.#hooks = hooks;
  }

  /** Whether a transaction callback is running. */
  get active(): boolean {
    return this.#depth > 0;
  }

  /**
   * Runs `fn` in a write transaction (a savepoint when nested).
   *
   * @param fn synchronous work
   * @param write false for a read-only connection (plain `BEGIN`)
   * @returns what `fn` returned, once committed
   */
  write<T>(fn: () => T, write = true): T {
    return this.#depth === 0 ? this.#outer(fn, write) : this.#nested(fn);
  }

  /**
   * Runs `fn` in a deferred transaction (inside another one, it simply runs).
   *
   * @param fn synchronous reads
   * @returns what `fn` returned
   */
  read<T>(fn: () => T): T {
    return this.#depth === 0 ? this.#outer(fn, false) : fn();
  }

  #outer<T>(fn: () => T, write: boolean): T {
    this.#connection.exec(write ? "BEGIN IMMEDIATE" : "BEGIN");
    this.#hooks.onBegin?.();
    this.#depth = 1;
    try {
      const result = this.#requireSync(fn());
      this.#connection.exec("COMMIT");
      return result;
    } catch (error) {
      this.#hooks.onRollback?.();
      if (this.#connection.isOpen && this.#connection.isTransaction) {
        this.#connection.exec("ROLLBACK");
      }
      throw error;
    } finally {
      this.#depth = 0;
    }
  }

  #nested<T>(fn: () => T): T {
    const savepoint = `daedalus_nested_${this.#depth}`;
    this.#connection.exec(`SAVEPOINT ${savepoint}`);
    this.#depth += 1;
    try {
      const result = this.#requireSync(fn());
      this.#connection.exec(`RELEASE ${savepoint}`);
      return result;
    } catch (error) {
      this.#hooks.onRollback?.();
      if (this.#connection.isOpen && this.#connection.isTransaction) {
        this.#connection.exec(`ROLLBACK TO ${savepoint}`);
        this.#connection.exec(`RELEASE ${savepoint}`);
      }
      throw error;
    } finally {
      this.#depth -= 1;
    }
  }

  #requireSync<T>(result: T): T {
    if (
      (typeof result === "object" || typeof result === "function") && result !== null &&
      "then" in result && typeof result.then === "function"
    ) {
      // Keep an abandoned rejection from surfacing as an unhandled one.
      Promise.resolve(result).catch(() => {});
      throw this.#onAsync();
    }
    return result;
  }
}
