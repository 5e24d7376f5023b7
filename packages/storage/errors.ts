/**
 * Errors thrown by `@daedalus/storage`. Every error is a {@linkcode StorageError} with a
 * stable `code`; callers branch on `code`, never on the message.
 *
 * @module
 */

/**
 * Base class of every error this package throws.
 *
 * @example
 * ```ts
 * try {
 *   await acquireRuntimeLock(paths.lock);
 * } catch (error) {
 *   if (error instanceof StorageError && error.code === "home_locked") Deno.exit(2);
 *   throw error;
 * }
 * ```
 */
export class StorageError extends Error {
  /** Stable, machine-readable reason, e.g. `home_locked` or `config_invalid`. */
  readonly code: string;

  /**
   * Creates a storage error.
   *
   * @param code stable reason
   * @param message sentence-case description without a trailing period
   * @param options the original error as `cause`
   */
  constructor(code: string, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "StorageError";
    this.code = code;
  }
}

// --- Runtime home -------------------------------------------------------------------------

/** Codes of {@linkcode HomePathError}. */
export type HomePathErrorCode = "home_path_relative" | "home_dir_unknown";

/**
 * A home or workspaces-root path cannot be resolved: an override such as `DAEDALUS_HOME` is
 * not absolute (`home_path_relative`), or the user's home directory is unknown because
 * `HOME` / `USERPROFILE` is unset (`home_dir_unknown`).
 */
export class HomePathError extends StorageError {
  /** Why the path could not be resolved. */
  declare readonly code: HomePathErrorCode;

  /**
   * Creates a home path error.
   *
   * @param code why the path could not be resolved
   * @param message sentence-case description naming the variable at fault
   */
  constructor(code: HomePathErrorCode, message: string) {
    super(code, message);
    this.name = "HomePathError";
  }
}

/** Another runtime holds the home's `runtime.lock` and did not let go in time. */
export class HomeLockedError extends StorageError {
  /** Always `home_locked`. */
  declare readonly code: "home_locked";
  /** The runtime home that is in use. */
  readonly home: string;
  /** The lock file that could not be taken. */
  readonly lockPath: string;

  /**
   * Creates the error for a home held by another runtime.
   *
   * @param home the runtime home that is in use
   * @param lockPath the lock file that could not be taken
   * @param waitedMs how long the caller waited
   */
  constructor(home: string, lockPath: string, waitedMs: number) {
    super(
      "home_locked",
      `Another Daedalus runtime holds the home directory ${home} ` +
        `(waited ${waitedMs} ms for ${lockPath}); stop it or use another DAEDALUS_HOME`,
    );
    this.name = "HomeLockedError";
    this.home = home;
    this.lockPath = lockPath;
  }
}

// --- config.yaml --------------------------------------------------------------------------

/** Codes of {@linkcode ConfigError}. */
export type ConfigErrorCode =
  | "config_too_large"
  | "config_parse"
  | "config_invalid"
  | "config_version"
  | "config_io";

/** One problem found in a config file or a config value. */
export interface ConfigIssue {
  /** Dotted key path such as `providers.local.models.x.context_window`; empty for the root. */
  readonly keyPath: string;
  /** What is wrong, without echoing the offending value (it may be a secret). */
  readonly message: string;
  /** 1-based line in the file, when the problem is located in one. */
  readonly line?: number;
  /** 1-based column in the file, when the problem is located in one. */
  readonly column?: number;
}

/**
 * config.yaml could not be read, parsed, validated or written. The message and issues name
 * the line/column or key path at fault and never contain configured values.
 */
export class ConfigError extends StorageError {
  /** Which stage failed. */
  declare readonly code: ConfigErrorCode;
  /** The config file concerned. */
  readonly filePath: string;
  /** Every problem found (bounded), first one first; empty for I/O and size errors. */
  readonly issues: readonly ConfigIssue[];

  /**
   * Creates a config error.
   *
   * @param code which stage failed
   * @param filePath the config file concerned
   * @param message sentence-case description without a trailing period
   * @param issues located problems, first one first
   * @param options the original error as `cause`
   */
  constructor(
    code: ConfigErrorCode,
    filePath: string,
    message: string,
    issues: readonly ConfigIssue[] = [],
    options?: ErrorOptions,
  ) {
    super(code, message, options);
    this.name = "ConfigError";
    this.filePath = filePath;
    this.issues = issues;
  }
}
