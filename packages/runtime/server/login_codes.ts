/**
 * One-time login codes: what a login URL carries instead of the access token
 * (`http://127.0.0.1:7420/#code=…`). A browser writes that URL into its history,
 * session and top-sites databases; a code found there later is already spent or expired,
 * so nothing there signs anyone in.
 *
 * A code is 256 random bits, redeemable once, for {@linkcode LOGIN_CODE_TTL_MS}, and only
 * under the token generation it was minted under (a rotation voids it). Only its SHA-256
 * is kept, in memory: a restart voids every code (the start-up line prints a fresh one).
 *
 * @module
 */
import { createHash } from "node:crypto";
import { LOGIN_CODE_TTL_MS, LOGIN_CODES_MAX_COUNT } from "./limits.ts";

/** A code's shape: 32 random bytes, base64url without padding (never a 64-hex token). */
export const LOGIN_CODE_PATTERN: RegExp = /^[A-Za-z0-9_-]{43}$/;

/** The fragment parameter of a login URL that carries the code. */
export const LOGIN_CODE_FRAGMENT_PARAM = "code";

/** A freshly minted code. */
export interface MintedLoginCode {
  /** The code itself (shown once, never stored). */
  code: string;
  /** When it stops working, epoch milliseconds. */
  expiresAtMs: number;
}

/** Options of {@linkcode LoginCodeStore}. */
export interface LoginCodeStoreOptions {
  /** How long a code stays redeemable; default {@linkcode LOGIN_CODE_TTL_MS}. */
  ttlMs?: number;
  /** Most unredeemed codes kept; the oldest is dropped beyond it. */
  maxCount?: number;
  /** The clock (tests move it). */
  now?: () => number;
}

interface PendingCode {
  generation: string;
  expiresAtMs: number;
}

/** The unredeemed login codes, by hash. */
export class LoginCodeStore {
  readonly #pending = new Map<string, PendingCode>();
  readonly #ttlMs: number;
  readonly #maxCount: number;
  readonly #now: () => number;

  /**
   * Makes an empty store.
   *
   * @param options lifetime, capacity and clock
   */
  constructor(options: LoginCodeStoreOptions = {}) {
    this.#ttlMs = options.ttlMs ?? LOGIN_CODE_TTL_MS;
    this.#maxCount = options.maxCount ?? LOGIN_CODES_MAX_COUNT;
    this.#now = options.now ?? Date.now;
  }

  /** How many codes are waiting to be redeemed (expired ones included until swept). */
  get size(): number {
    return this.#pending.size;
  }

  /**
   * Mints a code bound to `generation`.
   *
   * @param generation the current token generation
   * @returns the code and its expiry
   */
  mint(generation: string): MintedLoginCode {
    this.#sweep();
    const code = base64Url(crypto.getRandomValues(new Uint8Array(32)));
    const expiresAtMs = this.#now() + this.#ttlMs;
    this.#pending.set(codeKeyOf(code), { generation, expiresAtMs });
    for (const key of this.#pending.keys()) {
      if (this.#pending.size <= this.#maxCount) break;
      this.#pending.delete(key);
    }
    return { code, expiresAtMs };
  }

  /**
   * Spends a code. It is forgotten whatever the outcome, so a second try never works.
   *
   * @param code the code as presented
   * @param generation the current token generation (null while auth.json is unusable)
   * @returns the generation to open a session under, or null when the code is unknown,
   *   already used, expired or minted under another token
   */
  redeem(code: string, generation: string | null): string | null {
    if (!LOGIN_CODE_PATTERN.test(code)) return null;
    const key = codeKeyOf(code);
    const pending = this.#pending.get(key);
    if (pending === undefined) return null;
    this.#pending.delete(key);
    if (pending.expiresAtMs <= this.#now()) return null;
    if (generation === null || pending.generation !== generation) return null;
    return generation;
  }

  /**
   * Voids every code not minted under `generation` (after a rotation).
   *
   * @param generation the current generation, or null to void them all
   */
  dropOtherGenerations(generation: string | null): void {
    for (const [key, pending] of this.#pending) {
      if (pending.generation !== generation) this.#pending.delete(key);
    }
  }

  #sweep(): void {
    const now = this.#now();
    for (const [key, pending] of this.#pending) {
      if (pending.expiresAtMs <= now) this.#pending.delete(key);
    }
  }
}

/**
 * Builds the login URL for a code.
 *
 * @param baseUrl the runtime's URL, e.g. `http://127.0.0.1:7420/`
 * @param code a minted code
 * @returns e.g. `http://127.0.0.1:7420/#code=…`
 */
export function loginUrlFor(baseUrl: string, code: string): string {
  const base = baseUrl.endsWith("/") ? baseUrl : `${baseUrl}/`;
  return `${base}#${LOGIN_CODE_FRAGMENT_PARAM}=${code}`;
}

function codeKeyOf(code: string): string {
  return createHash("sha256").update(`daedalus login code\n${code}`).digest("hex");
}

function base64Url(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}
