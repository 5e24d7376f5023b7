/**
 * The single owner of `<home>/config.yaml`: providers, their models and the disabled
 * skills. Reads are bounded and validated; writes validate first, then replace the file
 * atomically (temp file in the same directory, fsync, rename), so the file on disk is
 * always either the old or the new complete config. A file that fails to parse or validate
 * is never overwritten: the user fixes it by hand, guided by the line or key path named in
 * the error. A parsed config is kept per path and served again while the file's mtime, size
 * and inode are unchanged (one stat per read); writes through this module refresh it.
 *
 * @example
 * ```ts
 * const paths = homePaths(resolveHome());
 * await updateConfig(paths.config, (config) => {
 *   config.skills.disabled.push("pdf-tools");
 *   return config;
 * });
 * ```
 *
 * @module
 */
import { basename, dirname, join, resolve } from "node:path";
import { stringify } from "yaml";
import { ConfigError } from "./errors.ts";
import { CONFIG_CACHE_MAX_FILES, CONFIG_MAX_BYTES, SECRET_FILE_MODE } from "./limits.ts";
import { configIssues, formatIssues, parseYamlDocument } from "./_config_yaml.ts";
import {
  CONFIG_VERSION,
  type DaedalusConfig,
  type DaedalusConfigInput,
  DaedalusConfigSchema,
} from "./config_schema.ts";

// The schemas themselves are exported from config_public.ts, typed `Schema<…>`.
export {
  CONFIG_VERSION,
  type DaedalusConfig,
  type DaedalusConfigInput,
  type ModelConfig,
  type ProviderConfig,
} from "./config_schema.ts";

const TEMP_SUFFIX = ".tmp";
const TEMP_RANDOM_BYTES = 8;

/**
 * The config used when config.yaml does not exist: version 1, no providers, no disabled
 * skills.
 *
 * @returns a fresh default config the caller may mutate
 */
export function defaultConfig(): DaedalusConfig {
  return { version: CONFIG_VERSION, providers: {}, skills: { disabled: [] } };
}

/**
 * Parses and validates config.yaml text. An empty document (blank or comments only) is the
 * default config.
 *
 * @param text the file's contents
 * @param filePath the file the text came from, named in errors
 * @returns the validated config with defaults filled in
 * @throws {ConfigError} `config_too_large` over 256 KiB, `config_parse` for invalid YAML,
 * `config_version` for a missing or unsupported `version`, `config_invalid` when the
 * schema rejects it (with key paths, lines and columns)
 */
export function parseConfig(text: string, filePath: string): DaedalusConfig {
  if (new TextEncoder().encode(text).byteLength > CONFIG_MAX_BYTES) {
    throw tooLargeError(filePath, "read");
  }
  const source = parseYamlDocument(text, filePath);
  if (source.data === null || source.data === undefined) return defaultConfig();
  checkVersion(source.data, filePath, source.locate(["version"], false));
  const result = DaedalusConfigSchema.safeParse(source.data);
  if (result.success) return result.data;
  const issues = configIssues(result.error, source.data, source.locate);
  throw new ConfigError("config_invalid", filePath, formatIssues(filePath, issues), issues);
}

/**
 * Reads `config.yaml`. A missing file is the default config; temp files left by an
 * interrupted write are never read. An unchanged file (same mtime, size and inode as at the
 * last read or write) is not read again; the caller always gets its own copy.
 *
 * @param path the config file, from `homePaths(home).config`
 * @returns the validated config with defaults filled in
 * @throws {ConfigError} `config_io` if the file cannot be read, and every error of
 * {@linkcode parseConfig}
 */
export async function readConfig(path: string): Promise<DaedalusConfig> {
  const key = resolve(path);
  const cached = parsedConfigs.get(key);
  if (cached && fileUnchanged(path, cached.stamp)) return structuredClone(cached.config);
  parsedConfigs.delete(key);
  const read = await readBounded(path);
  if (read === undefined) return defaultConfig();
  const config = decodeConfig(read.bytes, path);
  remember(key, read.stamp, config);
  return config;
}

/**
 * What identifies one version of config.yaml on disk without reading it: a write through
 * this module renames a new file into place (new inode), and an editor changes the mtime
 * (and usually the size). A stat per read is far cheaper than read + YAML + zod.
 */
interface FileStamp {
  readonly mtimeMs: number | null;
  readonly size: number;
  readonly ino: number | null;
}

/** The last parsed config per resolved path, valid while the file's stamp is unchanged. */
const parsedConfigs = new Map<string, { stamp: FileStamp; config: DaedalusConfig }>();

function remember(key: string, stamp: FileStamp, config: DaedalusConfig): void {
  parsedConfigs.delete(key);
  parsedConfigs.set(key, { stamp, config: structuredClone(config) });
  // Map order is insertion order: the first key is the least recently stored.
  const oldest = parsedConfigs.keys().next().value;
  if (parsedConfigs.size > CONFIG_CACHE_MAX_FILES && oldest !== undefined) {
    parsedConfigs.delete(oldest);
  }
}

function stampOf(info: Deno.FileInfo): FileStamp {
  return { mtimeMs: info.mtime?.getTime() ?? null, size: info.size, ino: info.ino };
}

function fileUnchanged(path: string, stamp: FileStamp): boolean {
  let info: Deno.FileInfo;
  try {
    // Synchronous: a stat is a few microseconds here, and it runs at every turn.start.
    info = Deno.statSync(path);
  } catch {
    return false; // Gone or unreadable: the full read decides (default config or an error).
  }
  const now = stampOf(info);
  // Without an mtime nothing proves the file unchanged.
  return now.mtimeMs !== null && now.mtimeMs === stamp.mtimeMs && now.size === stamp.size &&
    now.ino === stamp.ino;
}

function decodeConfig(bytes: Uint8Array, path: string): DaedalusConfig {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch (error) {
    throw new ConfigError("config_parse", path, `Config file ${path} is not valid UTF-8`, [], {
      cause: error,
    });
  }
  return parseConfig(text, path);
}

/**
 * Validates `config` and atomically replaces `config.yaml` with it (mode 0600). Refuses to
 * replace a file that does not parse or validate, so nothing the user wrote is lost.
 * Writes to the same path from this process are serialized.
 *
 * @param path the config file, from `homePaths(home).config`
 * @param config the new config; omitted defaults are filled in
 * @returns the config as written
 * @throws {ConfigError} `config_invalid` if `config` fails validation, `config_too_large`
 * if it serializes to more than 256 KiB, the read errors of {@linkcode readConfig} if the
 * current file is broken, `config_io` if the file cannot be written
 */
export function writeConfig(path: string, config: DaedalusConfigInput): Promise<DaedalusConfig> {
  return serializedByPath(path, async () => {
    await readConfig(path);
    return await replaceConfig(path, config);
  });
}

/**
 * Read-modify-write of `config.yaml`: reads the current config, passes it to `update`, and
 * writes what `update` returns, with no other write from this process in between.
 *
 * @param path the config file, from `homePaths(home).config`
 * @param update receives a private copy of the current config (it may mutate and return
 * it) and returns the new one
 * @returns the config as written
 * @throws {ConfigError} every error of {@linkcode readConfig} and {@linkcode writeConfig}
 * @throws whatever `update` throws; the file is then left untouched
 */
export function updateConfig(
  path: string,
  update: (current: DaedalusConfig) => DaedalusConfigInput | Promise<DaedalusConfigInput>,
): Promise<DaedalusConfig> {
  return serializedByPath(path, async () => {
    const current = await readConfig(path);
    return await replaceConfig(path, await update(current));
  });
}

function checkVersion(
  data: unknown,
  filePath: string,
  location: { line: number; column: number } | undefined,
): void {
  if (typeof data !== "object" || data === null || Array.isArray(data)) {
    const issue = { keyPath: "", message: "the config must be a mapping", line: 1, column: 1 };
    throw new ConfigError("config_invalid", filePath, formatIssues(filePath, [issue]), [issue]);
  }
  const version: unknown = (data as Record<string, unknown>).version;
  if (version === CONFIG_VERSION) return;
  const message = version === undefined
    ? `required key is missing; expected version: ${CONFIG_VERSION}`
    : `unsupported version ${
      String(version).slice(0, 20)
    }; this build reads version ${CONFIG_VERSION}`;
  const issue = { keyPath: "version", message, ...location };
  throw new ConfigError("config_version", filePath, formatIssues(filePath, [issue]), [issue]);
}

async function replaceConfig(path: string, input: DaedalusConfigInput): Promise<DaedalusConfig> {
  const result = DaedalusConfigSchema.safeParse(input);
  if (!result.success) {
    const issues = configIssues(result.error, input);
    throw new ConfigError("config_invalid", path, formatIssues(path, issues), issues);
  }
  const bytes = new TextEncoder().encode(stringify(result.data, { lineWidth: 0 }));
  if (bytes.byteLength > CONFIG_MAX_BYTES) throw tooLargeError(path, "write");
  await removeStaleTempFiles(path);
  const key = resolve(path);
  parsedConfigs.delete(key);
  const stamp = await writeAtomically(path, bytes);
  // The renamed file keeps the temp file's inode, mtime and size: the next read is a stat.
  remember(key, stamp, result.data);
  return result.data;
}

async function readBounded(
  path: string,
): Promise<{ bytes: Uint8Array; stamp: FileStamp } | undefined> {
  let file: Deno.FsFile;
  try {
    file = await Deno.open(path, { read: true });
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw ioError(path, "read", error);
  }
  try {
    // The stamp of the file actually read: a later change to it or its path differs.
    const info = await file.stat();
    if (!info.isFile) {
      throw new ConfigError("config_io", path, `Config file ${path} is not a regular file`);
    }
    // One byte past the limit is enough to tell an oversized file without loading it.
    const buffer = new Uint8Array(CONFIG_MAX_BYTES + 1);
    let length = 0;
    while (length < buffer.length) {
      const count = await file.read(buffer.subarray(length));
      if (count === null) break;
      length += count;
    }
    if (length > CONFIG_MAX_BYTES) throw tooLargeError(path, "read");
    return { bytes: buffer.subarray(0, length), stamp: stampOf(info) };
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw ioError(path, "read", error);
  } finally {
    file.close();
  }
}

async function writeAtomically(path: string, bytes: Uint8Array): Promise<FileStamp> {
  const tempPath = join(dirname(path), tempFilePrefix(path) + randomHex() + TEMP_SUFFIX);
  let stamp: FileStamp;
  try {
    const file = await Deno.open(tempPath, {
      write: true,
      createNew: true,
      mode: SECRET_FILE_MODE,
    });
    try {
      let written = 0;
      while (written < bytes.byteLength) written += await file.write(bytes.subarray(written));
      await file.sync();
      stamp = stampOf(await file.stat());
    } finally {
      file.close();
    }
    // open()'s mode is filtered by the umask; the file holds API keys, so set it exactly.
    if (Deno.build.os !== "windows") await Deno.chmod(tempPath, SECRET_FILE_MODE);
    await Deno.rename(tempPath, path);
  } catch (error) {
    await Deno.remove(tempPath).catch(() => {
      // The temp file may never have been created; a leftover one is removed next write.
    });
    throw ioError(path, "write", error);
  }
  await syncDirectory(dirname(path));
  return stamp;
}

async function syncDirectory(dir: string): Promise<void> {
  // Windows cannot open a directory as a file; NTFS journals the rename itself.
  if (Deno.build.os === "windows") return;
  try {
    using handle = await Deno.open(dir, { read: true });
    await handle.sync();
  } catch {
    // Best effort: the rename is already atomic; this only hurries it to disk, and some
    // file systems refuse fsync on a directory.
  }
}

async function removeStaleTempFiles(path: string): Promise<void> {
  // Only one writer per home exists (the runtime lock), so any temp file is a leftover
  // from a writer that was killed mid-write.
  const prefix = tempFilePrefix(path);
  const pattern = new RegExp(`^${escapeRegExp(prefix)}[0-9a-f]{${TEMP_RANDOM_BYTES * 2}}\\.tmp$`);
  try {
    for await (const entry of Deno.readDir(dirname(path))) {
      if (!entry.isFile || !pattern.test(entry.name)) continue;
      await Deno.remove(join(dirname(path), entry.name)).catch(() => {
        // Already gone, or not ours to remove: readConfig never reads temp files anyway.
      });
    }
  } catch (error) {
    throw ioError(path, "write", error);
  }
}

function tempFilePrefix(path: string): string {
  return `.${basename(path)}.`;
}

function randomHex(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(TEMP_RANDOM_BYTES));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

const writeQueues = new Map<string, Promise<void>>();

async function serializedByPath<T>(path: string, task: () => Promise<T>): Promise<T> {
  const key = resolve(path);
  const previous = writeQueues.get(key) ?? Promise.resolve();
  const run = previous.then(task);
  const tail = run.then(() => {}, () => {});
  writeQueues.set(key, tail);
  try {
    return await run;
  } finally {
    if (writeQueues.get(key) === tail) writeQueues.delete(key);
  }
}

function tooLargeError(path: string, operation: "read" | "write"): ConfigError {
  const limit = `${CONFIG_MAX_BYTES / 1024} KiB`;
  const message = operation === "read"
    ? `Config file ${path} is larger than ${limit}`
    : `Config for ${path} would be larger than ${limit}; nothing was written`;
  return new ConfigError("config_too_large", path, message);
}

function ioError(path: string, operation: "read" | "write", cause: unknown): ConfigError {
  const reason = cause instanceof Error ? cause.message : String(cause);
  return new ConfigError(
    "config_io",
    path,
    `Cannot ${operation} config file ${path}: ${reason}`,
    [],
    {
      cause,
    },
  );
}
