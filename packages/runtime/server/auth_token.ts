/**
 * The access token in `<home>/auth.json`: created once (mode 0600, atomic), rotated on
 * demand, and checked by the running server through a {@linkcode TokenStore}, which
 * notices a rotation done by another process (`daedalus token --rotate`).
 *
 * The token itself never leaves this file's scope in any message: errors name the
 * path and the broken rule, never the content.
 *
 * @module
 */
import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { writePrivateFile } from "./_private_file.ts";
import { TOKEN_RECHECK_INTERVAL_MS } from "./limits.ts";

/** The parsed content of `auth.json`. */
export interface AuthFile {
  /** Format version; only 1 exists. */
  version: 1;
  /** 64 lowercase hex digits: 256 random bits. */
  token: string;
  /** When this token was minted, ISO-8601 UTC. */
  createdAt: string;
}

/** Why `auth.json` could not be used. */
export type AuthFileErrorCode =
  | "auth_file_missing"
  | "auth_file_invalid"
  | "auth_file_unreadable"
  | "auth_file_unwritable";

/** Thrown (or reported) when `auth.json` cannot be read, parsed or written. */
export class AuthFileError extends Error {
  /** What went wrong, stable for callers. */
  readonly code: AuthFileErrorCode;

  /**
   * Makes the error.
   *
   * @param code what went wrong
   * @param message a sentence naming the file and the rule, never the token
   * @param options the original I/O error as `cause`
   */
  constructor(code: AuthFileErrorCode, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "AuthFileError";
    this.code = code;
  }
}

const TOKEN_PATTERN = /^[0-9a-f]{64}$/;
const IS_WINDOWS = Deno.build.os === "windows";

/**
 * Returns the token in `authPath`, creating the file with a fresh token when it does
 * not exist. Creation is atomic and never overwrites a file another process made first.
 *
 * @param authPath the path of `auth.json`
 * @returns the token
 * @throws {AuthFileError} when the file exists but is unreadable or invalid, or cannot be written
 */
export async function loadOrCreateToken(authPath: string): Promise<string> {
  const existing = await readAuthFileIfPresent(authPath);
  if (existing) return existing.token;
  const fresh = mintAuthFile();
  const created = await writeAuthFile(authPath, fresh, { overwrite: false });
  if (created) return fresh.token;
  const winner = await readAuthFileIfPresent(authPath);
  if (!winner) {
    throw new AuthFileError("auth_file_missing", `${authPath} vanished while it was being created`);
  }
  return winner.token;
}

/**
 * Replaces the token in `authPath` with a new one (atomic replace, mode 0600). Every
 * session and connection authorized with the old token stops working once the
 * server notices the change.
 *
 * @param authPath the path of `auth.json`
 * @returns the new token
 * @throws {AuthFileError} when the file cannot be written
 */
export async function rotateToken(authPath: string): Promise<string> {
  const fresh = mintAuthFile();
  await writeAuthFile(authPath, fresh, { overwrite: true });
  return fresh.token;
}

/**
 * Reads and validates `auth.json`.
 *
 * @param authPath the path of `auth.json`
 * @returns the parsed file
 * @throws {AuthFileError} `auth_file_missing`, `auth_file_unreadable` or `auth_file_invalid`
 */
export async function readAuthFile(authPath: string): Promise<AuthFile> {
  const file = await readAuthFileIfPresent(authPath);
  if (!file) throw new AuthFileError("auth_file_missing", `${authPath} does not exist`);
  return file;
}

/**
 * Validates the text of `auth.json`.
 *
 * @param text the file's content
 * @param authPath the path, for the error message
 * @returns the parsed file
 * @throws {AuthFileError} `auth_file_invalid` naming the broken rule
 */
export function parseAuthFile(text: string, authPath: string): AuthFile {
  const invalid = (rule: string) => new AuthFileError("auth_file_invalid", `${authPath}: ${rule}`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // The parser's message quotes the text, which holds the token: it is dropped on purpose.
    throw invalid("not valid JSON");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw invalid("expected a JSON object");
  }
  const record = value as Record<string, unknown>;
  if (record.version !== 1) throw invalid("version must be 1");
  if (typeof record.token !== "string" || !TOKEN_PATTERN.test(record.token)) {
    throw invalid("token must be 64 lowercase hex digits");
  }
  if (typeof record.createdAt !== "string" || Number.isNaN(Date.parse(record.createdAt))) {
    throw invalid("createdAt must be an ISO-8601 timestamp");
  }
  return { version: 1, token: record.token, createdAt: record.createdAt };
}

/** Options of {@linkcode TokenStore.open}. */
export interface TokenStoreOptions {
  /** Least time between two looks at the file's stat; 0 looks on every check. */
  recheckIntervalMs?: number;
  /** Told when the file turns missing or invalid (the store then refuses every token). */
  onWarning?: (error: AuthFileError) => void;
  /** Told each token the store takes (at open and after every rotation), to protect it. */
  onSecretIssued?: (secret: string) => void;
}

interface TokenState {
  digest: Uint8Array;
  generation: string;
}

/**
 * The server's view of the access token. Checks are constant-time (HMAC digests of
 * equal length compared with `timingSafeEqual`), and the file is re-read when its
 * stat changes, looked at most once per {@linkcode TOKEN_RECHECK_INTERVAL_MS}.
 * When the file turns missing or invalid the store fails closed: no token matches.
 *
 * Each token has a *generation*, an opaque id that sessions and connections remember to
 * learn when it was rotated. It is a one-way hash of the token (which is 256 random bits,
 * so the hash reveals nothing), stable across restarts: browser sessions persisted in
 * `sessions.json` stay valid after a restart and end with a rotation.
 */
export class TokenStore {
  readonly #authPath: string;
  readonly #recheckIntervalMs: number;
  readonly #onWarning: (error: AuthFileError) => void;
  readonly #onSecretIssued: (secret: string) => void;
  readonly #hmacKey: Uint8Array = crypto.getRandomValues(new Uint8Array(32));
  readonly #listeners = new Set<(generation: string | null) => void>();
  #state: TokenState | null = null;
  #stamp = "";
  #checkedAt = Number.NEGATIVE_INFINITY;
  #reloading: Promise<void> | null = null;

  private constructor(authPath: string, options: TokenStoreOptions) {
    this.#authPath = authPath;
    this.#recheckIntervalMs = options.recheckIntervalMs ?? TOKEN_RECHECK_INTERVAL_MS;
    this.#onWarning = options.onWarning ?? ((error) => console.error(`warning: ${error.message}`));
    this.#onSecretIssued = options.onSecretIssued ?? (() => {});
  }

  /**
   * Opens the store on `authPath`, creating the file with a fresh token if needed.
   *
   * @param authPath the path of `auth.json`
   * @param options how often to re-check the file, where warnings go
   * @returns the store
   * @throws {AuthFileError} when the file cannot be created or is invalid
   */
  static async open(authPath: string, options: TokenStoreOptions = {}): Promise<TokenStore> {
    await loadOrCreateToken(authPath);
    const store = new TokenStore(authPath, options);
    await store.refresh({ force: true });
    if (!store.#state) await readAuthFile(authPath); // throws the precise error
    return store;
  }

  /** The path of `auth.json`. */
  get authPath(): string {
    return this.#authPath;
  }

  /**
   * Checks a presented token against the current one.
   *
   * @param candidate the token as presented
   * @returns the current generation when it matches, otherwise null
   */
  async verify(candidate: string): Promise<string | null> {
    await this.refresh();
    const state = this.#state;
    if (!state) return null;
    return timingSafeEqual(this.#digest(candidate), state.digest) ? state.generation : null;
  }

  /**
   * The current generation (after a re-check when one is due).
   *
   * @returns the generation, or null while the file is missing or invalid
   */
  async currentGeneration(): Promise<string | null> {
    await this.refresh();
    return this.#state?.generation ?? null;
  }

  /**
   * Re-reads `auth.json` if its stat changed and a check is due.
   *
   * @param options `force` ignores the re-check interval
   */
  refresh(options: { force?: boolean } = {}): Promise<void> {
    if (this.#reloading) {
      // A forced check must look after the write that asked for it, not join an older look.
      return options.force ? this.#reloading.then(() => this.refresh(options)) : this.#reloading;
    }
    const now = performance.now();
    if (!options.force && now - this.#checkedAt < this.#recheckIntervalMs) {
      return Promise.resolve();
    }
    this.#checkedAt = now;
    this.#reloading = this.#reload().finally(() => this.#reloading = null);
    return this.#reloading;
  }

  /**
   * Rotates the token from inside the server process and takes it at once.
   *
   * @throws {AuthFileError} when the file cannot be written
   */
  async rotate(): Promise<void> {
    await rotateToken(this.#authPath);
    await this.refresh({ force: true });
  }

  /**
   * Calls `listener` whenever the generation changes (a rotation, or the file turning
   * missing or invalid, reported as null).
   *
   * @param listener receives the new generation
   * @returns unsubscribe
   */
  onRotation(listener: (generation: string | null) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  async #reload(): Promise<void> {
    let stamp: string;
    try {
      const info = await Deno.stat(this.#authPath);
      stamp = [info.mtime?.getTime(), info.ino, info.size, info.birthtime?.getTime()].join(":");
    } catch (error) {
      const failure = statError(this.#authPath, error);
      this.#failClosed(failure, `stat:${failure.code}`);
      return;
    }
    if (stamp === this.#stamp) return;
    let file: AuthFile;
    try {
      file = await readAuthFile(this.#authPath);
    } catch (error) {
      if (!(error instanceof AuthFileError)) throw error;
      this.#failClosed(error, stamp);
      return;
    }
    this.#stamp = stamp;
    this.#onSecretIssued(file.token);
    const digest = this.#digest(file.token);
    if (this.#state && timingSafeEqual(digest, this.#state.digest)) return;
    this.#setState({ digest, generation: generationOf(file.token) });
  }

  #failClosed(error: AuthFileError, stamp: string): void {
    if (this.#stamp !== stamp) this.#onWarning(error);
    this.#stamp = stamp;
    this.#setState(null);
  }

  #setState(state: TokenState | null): void {
    const changed = this.#state?.generation !== state?.generation;
    this.#state = state;
    if (!changed) return;
    for (const listener of this.#listeners) listener(state?.generation ?? null);
  }

  #digest(value: string): Uint8Array {
    return createHmac("sha256", this.#hmacKey).update(value).digest();
  }
}

function generationOf(token: string): string {
  return createHash("sha256").update(`daedalus token generation\n${token}`).digest("hex").slice(
    0,
    32,
  );
}

function mintAuthFile(): AuthFile {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  const token = Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
  return { version: 1, token, createdAt: new Date().toISOString() };
}

async function readAuthFileIfPresent(authPath: string): Promise<AuthFile | null> {
  let text: string;
  try {
    text = await Deno.readTextFile(authPath);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw new AuthFileError("auth_file_unreadable", `${authPath} cannot be read`, {
      cause: error,
    });
  }
  const file = parseAuthFile(text, authPath);
  await tightenMode(authPath);
  return file;
}

/** A token file readable by others is narrowed back to 0600 rather than refused. */
async function tightenMode(authPath: string): Promise<void> {
  if (IS_WINDOWS) return;
  try {
    const info = await Deno.stat(authPath);
    if (info.mode !== null && (info.mode & 0o077) !== 0) await Deno.chmod(authPath, 0o600);
  } catch {
    // Not our file to chmod (another owner): it is still readable and valid, so use it.
  }
}

/**
 * Writes `auth.json` (owner-only, atomic): renames over it (rotate) or hard-links it into
 * place (create: fails if another process created it first).
 *
 * @returns false when `overwrite` is false and the file already exists
 */
async function writeAuthFile(
  authPath: string,
  file: AuthFile,
  options: { overwrite: boolean },
): Promise<boolean> {
  try {
    return await writePrivateFile(authPath, `${JSON.stringify(file)}\n`, options);
  } catch (error) {
    throw new AuthFileError("auth_file_unwritable", `${authPath} cannot be written`, {
      cause: error,
    });
  }
}

function statError(authPath: string, error: unknown): AuthFileError {
  if (error instanceof Deno.errors.NotFound) {
    return new AuthFileError("auth_file_missing", `${authPath} does not exist`);
  }
  return new AuthFileError("auth_file_unreadable", `${authPath} cannot be read`, { cause: error });
}
