/**
 * YAML parsing for config.yaml and the mapping of problems back to lines, columns and key
 * paths. Private to the package: {@linkcode parseYamlDocument}, {@linkcode configIssues},
 * {@linkcode formatIssues}.
 *
 * No message built here quotes a configured value: YAML's own messages can quote a source
 * token (which may be an API key), so only its error code and position are used.
 *
 * @module
 */
import type { z } from "zod";
import { isMap, isNode, isScalar, isSeq, LineCounter, parseDocument, visit } from "yaml";
import { ConfigError, type ConfigIssue } from "./errors.ts";
import { CONFIG_ISSUES_MAX_COUNT } from "./limits.ts";

/** A 1-based position in the file. */
export interface SourceLocation {
  /** 1-based line. */
  readonly line: number;
  /** 1-based column. */
  readonly column: number;
}

/**
 * Finds where a key path is in the parsed file.
 *
 * @param path key path from the root
 * @param atKey point at the last segment's key rather than its value
 * @returns the position of the deepest node of `path` present in the file
 */
export type LocateFn = (
  path: readonly PropertyKey[],
  atKey: boolean,
) => SourceLocation | undefined;

/** A parsed YAML document: its plain data and a way back to positions. */
export interface YamlSource {
  /** The document as plain JavaScript data; `null` for an empty document. */
  readonly data: unknown;
  /** Finds key paths in the source. */
  readonly locate: LocateFn;
}

const YAML_ERROR_DESCRIPTIONS: Readonly<Record<string, string>> = {
  DUPLICATE_KEY: "duplicate key",
  MULTIPLE_DOCS: "more than one YAML document",
  BAD_INDENT: "bad indentation",
  TAB_AS_INDENT: "tab used for indentation",
  MISSING_CHAR: "missing closing quote or bracket",
  BAD_DQ_ESCAPE: "invalid escape in a double-quoted string",
  MULTILINE_IMPLICIT_KEY: "a key spans several lines",
  KEY_OVER_1024_CHARS: "a key is longer than 1024 characters",
  BLOCK_AS_IMPLICIT_KEY: "a nested block is used as a key",
  UNEXPECTED_TOKEN: "unexpected content",
};

/**
 * Parses one YAML document. Mapping keys keep their source text (`1.50:` is the key
 * `"1.50"`, not the number 1.5), because model ids are free-form.
 *
 * @param text the YAML text
 * @param filePath the file it came from, named in errors
 * @returns the plain data and a locator
 * @throws {ConfigError} `config_parse` with the line and column of the first syntax error
 */
export function parseYamlDocument(text: string, filePath: string): YamlSource {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { prettyErrors: false, lineCounter, uniqueKeys: true });
  if (doc.errors.length > 0) {
    const issues = doc.errors.slice(0, CONFIG_ISSUES_MAX_COUNT).map((error): ConfigIssue => {
      const { line, col } = lineCounter.linePos(error.pos[0]);
      const description = YAML_ERROR_DESCRIPTIONS[error.code] ??
        error.code.toLowerCase().replaceAll("_", " ");
      return { keyPath: "", message: `invalid YAML: ${description}`, line, column: col };
    });
    // Not passed as `cause`: YAML's message may quote a secret from the source line.
    throw new ConfigError("config_parse", filePath, formatIssues(filePath, issues), issues);
  }
  visit(doc, {
    Pair(_key, pair) {
      if (isScalar(pair.key) && typeof pair.key.value !== "string" && pair.key.source) {
        pair.key.value = pair.key.source;
      }
    },
  });
  let data: unknown;
  try {
    data = doc.toJS();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const issue = { keyPath: "", message: `invalid YAML alias: ${reason}` };
    throw new ConfigError("config_parse", filePath, formatIssues(filePath, [issue]), [issue], {
      cause: error,
    });
  }
  const locate: LocateFn = (path, atKey) => locateNode(doc.contents, path, atKey, lineCounter);
  return { data, locate };
}

/**
 * Turns zod issues into config issues with key paths (and positions when a locator is
 * given). Unknown keys become one issue each, pointing at the key; a type error on an
 * absent key says the key is missing.
 *
 * @param error the zod error
 * @param input the data that was validated, to tell missing keys from wrong values
 * @param locate maps key paths to file positions
 * @returns at most {@linkcode CONFIG_ISSUES_MAX_COUNT} issues, in zod's order
 */
export function configIssues(error: z.ZodError, input: unknown, locate?: LocateFn): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const add = (path: readonly PropertyKey[], message: string, atKey: boolean) => {
    issues.push({ keyPath: formatKeyPath(path), message, ...locate?.(path, atKey) });
  };
  for (const issue of error.issues) {
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) add([...issue.path, key], "unknown key", true);
    } else if (issue.code === "invalid_key") {
      add(issue.path, issue.issues[0]?.message ?? issue.message, true);
    } else if (
      (issue.code === "invalid_type" || issue.code === "invalid_value") &&
      valueAt(input, issue.path) === undefined
    ) {
      add(issue.path, "required key is missing", false);
    } else {
      add(issue.path, issue.message, false);
    }
  }
  return issues.slice(0, CONFIG_ISSUES_MAX_COUNT);
}

function valueAt(data: unknown, path: readonly PropertyKey[]): unknown {
  let value = data;
  for (const segment of path) {
    if (typeof value !== "object" || value === null || !Object.hasOwn(value, segment)) {
      return undefined;
    }
    value = (value as Record<PropertyKey, unknown>)[segment];
  }
  return value;
}

/**
 * The error message for a list of issues: the first in full, then how many more.
 *
 * @param filePath the config file concerned
 * @param issues at least one issue
 * @returns e.g. `Invalid config file /h/config.yaml: providers.a.base_url: base_url must be
 * an http(s) URL (line 4, column 15)`
 */
export function formatIssues(filePath: string, issues: readonly ConfigIssue[]): string {
  const [first] = issues;
  if (first === undefined) return `Invalid config file ${filePath}`;
  const where = first.line === undefined ? "" : ` (line ${first.line}, column ${first.column})`;
  const key = first.keyPath === "" ? "" : `${first.keyPath}: `;
  const more = issues.length > 1 ? `; ${issues.length - 1} more problem(s)` : "";
  return `Invalid config file ${filePath}: ${key}${first.message}${where}${more}`;
}

/**
 * Formats a key path: `providers.local.models["qwen2.5:7b"].context_window`,
 * `skills.disabled[0]`.
 *
 * @param path key path segments
 * @returns the dotted path; empty for the root
 */
export function formatKeyPath(path: readonly PropertyKey[]): string {
  let text = "";
  for (const segment of path) {
    if (typeof segment === "number") text += `[${segment}]`;
    else if (typeof segment === "string" && /^[A-Za-z0-9_-]+$/.test(segment)) {
      text += text === "" ? segment : `.${segment}`;
    } else text += `[${JSON.stringify(String(segment))}]`;
  }
  return text;
}

function locateNode(
  root: unknown,
  path: readonly PropertyKey[],
  atKey: boolean,
  lineCounter: LineCounter,
): SourceLocation | undefined {
  let node: unknown = root;
  let keyNode: unknown;
  for (const segment of path) {
    if (isMap(node)) {
      const pair = node.items.find((item) =>
        isScalar(item.key) && String(item.key.value) === String(segment)
      );
      if (pair === undefined) break;
      keyNode = pair.key;
      node = pair.value;
    } else if (isSeq(node) && typeof segment === "number" && segment < node.items.length) {
      keyNode = undefined;
      node = node.items[segment];
    } else break;
  }
  const target = (atKey || !isNode(node)) && isNode(keyNode) ? keyNode : node;
  const offset = isNode(target) ? target.range?.[0] : undefined;
  if (offset === undefined) return undefined;
  const { line, col } = lineCounter.linePos(offset);
  return { line, column: col };
}
