/**
 * The gateway's app keys in `<home>/gateway_keys.json` (mode 0600, written atomically):
 * each key's name, agent profile and SHA-256 hash, never the key itself. A key is shown
 * once, when created. A small JSON file rather than a state table: keys are few, change
 * rarely, and belong to the runtime's configuration, not to any thread's history.
 *
 * @example
 * ```ts ignore
 * const keys = await GatewayKeyStore.open(`${home}/gateway_keys.json`);
 * const { key } = await keys.create("Dify", { providerId: "p", modelId: "m", permission: "read_only" });
 * keys.authenticate(key); // { ok: true, gatewayKey: … }
 * ```
 *
 * @module
 */
import { createHash } from "node:crypto";
import { z } from "zod";
import {
  GATEWAY_KEYS_MAX_COUNT,
  type GatewayKey,
  GatewayKey as GatewayKeySchema,
  type GatewayKeyProfile,
} from "@daedalus/protocol";
import { writePrivateFile } from "../server/_private_file.ts";
import {
  GATEWAY_KEY_RANDOM_BYTES,
  GATEWAY_KEYS_FILE_MAX_BYTES,
  GATEWAY_LAST_USED_WRITE_INTERVAL_MS,
} from "./limits.ts";

/** What an app key looks like: `app-` and 40 lowercase hex digits. */
export const APP_KEY_PATTERN = /^app-[0-9a-f]{40}$/;

/** Why the keys file or a key operation failed. */
export type GatewayKeyErrorCode =
  | "gateway_keys_unreadable"
  | "gateway_keys_invalid"
  | "gateway_keys_unwritable"
  | "gateway_key_not_found"
  | "gateway_keys_full";

/** A failure of the key store, with a stable code; never carries a key. */
export class GatewayKeyError extends Error {
  /** What went wrong, stable for callers. */
  readonly code: GatewayKeyErrorCode;

  /**
   * Makes the error.
   *
   * @param code what went wrong
   * @param message a sentence naming the file or key id and the rule
   * @param options the original error as `cause`
   */
  constructor(code: GatewayKeyErrorCode, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "GatewayKeyError";
    this.code = code;
  }
}

/** How a presented key fared. */
export type KeyCheck =
  | { ok: true; gatewayKey: GatewayKey }
  | { ok: false; reason: "malformed" | "unknown" | "revoked" };

/** A key as its file keeps it: the public record and the key's hash. */
type StoredKey = GatewayKey & { sha256: string };

const KeysFile = z.strictObject({
  version: z.literal(1),
  // Each entry is also checked as a GatewayKey (the protocol's schema) when read.
  keys: z.array(z.looseObject({ sha256: z.string().regex(/^[0-9a-f]{64}$/) }))
    .max(GATEWAY_KEYS_MAX_COUNT),
});

/** What {@linkcode GatewayKeyStore.open} may be given, for tests. */
export interface GatewayKeyStoreOptions {
  /** The clock (epoch ms); default `Date.now`. */
  now?: () => number;
}

/** The app keys, in memory and in their file. */
export class GatewayKeyStore {
  readonly #path: string;
  readonly #now: () => number;
  #keys: StoredKey[];
  /** Writes, one at a time, in call order. */
  #writing: Promise<unknown> = Promise.resolve();
  /** When each key's `lastUsedAt` last reached the file (epoch ms). */
  readonly #usedWritten = new Map<string, number>();

  private constructor(path: string, keys: StoredKey[], now: () => number) {
    this.#path = path;
    this.#keys = keys;
    this.#now = now;
  }

  /**
   * Opens the store; a missing file is an empty store (it is written on the first change).
   *
   * @param path `<home>/gateway_keys.json`
   * @param options the clock
   * @returns the store
   * @throws {GatewayKeyError} `gateway_keys_unreadable` or `gateway_keys_invalid`
   */
  static async open(path: string, options: GatewayKeyStoreOptions = {}): Promise<GatewayKeyStore> {
    const now = options.now ?? Date.now;
    let text: string;
    try {
      const info = await Deno.stat(path);
      if (info.size > GATEWAY_KEYS_FILE_MAX_BYTES) {
        throw new GatewayKeyError(
          "gateway_keys_invalid",
          `${path} is larger than ${GATEWAY_KEYS_FILE_MAX_BYTES} bytes`,
        );
      }
      text = await Deno.readTextFile(path);
    } catch (error) {
      if (error instanceof GatewayKeyError) throw error;
      if (error instanceof Deno.errors.NotFound) return new GatewayKeyStore(path, [], now);
      throw new GatewayKeyError("gateway_keys_unreadable", `${path} cannot be read`, {
        cause: error,
      });
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      throw new GatewayKeyError("gateway_keys_invalid", `${path} is not JSON`, { cause: error });
    }
    const parsed = KeysFile.safeParse(json);
    if (!parsed.success) throw invalidFile(path, parsed.error.issues[0]);
    const keys: StoredKey[] = [];
    for (const [index, entry] of parsed.data.keys.entries()) {
      const key = GatewayKeySchema.safeParse(entry);
      if (!key.success) throw invalidFile(path, key.error.issues[0], `keys.${index}.`);
      keys.push({ ...key.data, sha256: entry.sha256 });
    }
    return new GatewayKeyStore(path, keys, now);
  }

  /**
   * Creates a key.
   *
   * @param name its label
   * @param profile what its runs may do
   * @returns the key (shown once) and its record
   * @throws {GatewayKeyError} `gateway_keys_full` or `gateway_keys_unwritable`
   */
  async create(
    name: string,
    profile: GatewayKeyProfile,
  ): Promise<{ key: string; gatewayKey: GatewayKey }> {
    if (this.#keys.length >= GATEWAY_KEYS_MAX_COUNT) {
      throw new GatewayKeyError(
        "gateway_keys_full",
        `There are ${GATEWAY_KEYS_MAX_COUNT} gateway keys already; delete revoked ones first.`,
      );
    }
    const key = `app-${randomHex(GATEWAY_KEY_RANDOM_BYTES)}`;
    const stored: StoredKey = {
      keyId: `gwkey_${randomHex(16)}`,
      name,
      profile,
      hint: key.slice(0, 8),
      createdAt: new Date(this.#now()).toISOString(),
      lastUsedAt: null,
      revokedAt: null,
      sha256: sha256(key),
    };
    await this.#commit((keys) => [stored, ...keys]);
    return { key, gatewayKey: publicKey(stored) };
  }

  /**
   * The keys, newest first, revoked ones included.
   *
   * @returns their public records
   */
  list(): GatewayKey[] {
    return this.#keys.map(publicKey);
  }

  /**
   * Revokes a key.
   *
   * @param keyId the key's id
   * @returns its record and whether it was valid until now
   * @throws {GatewayKeyError} `gateway_key_not_found` or `gateway_keys_unwritable`
   */
  async revoke(keyId: string): Promise<{ gatewayKey: GatewayKey; changed: boolean }> {
    let outcome: { gatewayKey: GatewayKey; changed: boolean } | null = null;
    await this.#commit((keys) => {
      const found = keys.find((k) => k.keyId === keyId);
      if (!found) throw new GatewayKeyError("gateway_key_not_found", `No gateway key ${keyId}.`);
      if (found.revokedAt !== null) {
        outcome = { gatewayKey: publicKey(found), changed: false };
        return keys;
      }
      const revoked = { ...found, revokedAt: new Date(this.#now()).toISOString() };
      outcome = { gatewayKey: publicKey(revoked), changed: true };
      return keys.map((k) => k === found ? revoked : k);
    });
    return outcome!;
  }

  /**
   * Checks a presented key and, when valid, notes its use (on disk at most once a minute).
   *
   * @param presented what the request's `Authorization: Bearer` carried
   * @returns the key's record, or why it is refused
   */
  authenticate(presented: string): KeyCheck {
    if (!APP_KEY_PATTERN.test(presented)) return { ok: false, reason: "malformed" };
    const hash = sha256(presented);
    const found = this.#keys.find((k) => k.sha256 === hash);
    if (!found) return { ok: false, reason: "unknown" };
    if (found.revokedAt !== null) return { ok: false, reason: "revoked" };
    const now = this.#now();
    const used = { ...found, lastUsedAt: new Date(now).toISOString() };
    this.#keys = this.#keys.map((k) => k === found ? used : k);
    const written = this.#usedWritten.get(found.keyId) ?? 0;
    if (now - written >= GATEWAY_LAST_USED_WRITE_INTERVAL_MS) {
      this.#usedWritten.set(found.keyId, now);
      // Best effort: a failed write of a timestamp must not refuse a valid key.
      this.#commit((keys) => keys).catch(() => {});
    }
    return { ok: true, gatewayKey: publicKey(used) };
  }

  /** Waits for the writes started so far (tests, shutdown). */
  async flush(): Promise<void> {
    await this.#writing.catch(() => {});
  }

  /**
   * Applies a change after the writes before it, writes the file, then keeps the change in
   * memory: a change that did not reach the file did not happen.
   */
  #commit(change: (keys: StoredKey[]) => StoredKey[]): Promise<void> {
    const write = this.#writing.catch(() => {}).then(async () => {
      const keys = change(this.#keys);
      const content = JSON.stringify({ version: 1, keys }, null, 2) + "\n";
      try {
        await writePrivateFile(this.#path, content, { overwrite: true });
      } catch (error) {
        throw new GatewayKeyError("gateway_keys_unwritable", `${this.#path} cannot be written`, {
          cause: error,
        });
      }
      this.#keys = keys;
    });
    this.#writing = write;
    return write;
  }
}

function invalidFile(
  path: string,
  issue: { path: readonly PropertyKey[]; message: string } | undefined,
  prefix = "",
): GatewayKeyError {
  const where = `${prefix}${issue?.path.map(String).join(".") ?? ""}` || "(root)";
  return new GatewayKeyError(
    "gateway_keys_invalid",
    `${path}: ${where}: ${issue?.message ?? "invalid"}`,
  );
}

function publicKey({ sha256: _hash, ...key }: StoredKey): GatewayKey {
  return key;
}

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

function randomHex(bytes: number): string {
  const buffer = crypto.getRandomValues(new Uint8Array(bytes));
  return Array.from(buffer, (b) => b.toString(16).padStart(2, "0")).join("");
}
