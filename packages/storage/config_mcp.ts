/**
 * The `mcp` section of config.yaml: the Model Context Protocol servers whose tools the
 * runtime offers to the model (issue 17). Each `mcp.servers.<name>` is either a stdio
 * server (`command`, `args`, `env`, `cwd`) or a Streamable HTTP one (`url`, `headers`),
 * plus `enabled`, `timeout_ms` (per call), `tools.disabled` and `permission` (the default
 * decision for its tools; absent: the Run's preset decides, `ask` by default). `env` and
 * `headers` carry secrets: the runtime protects them like API keys.
 *
 * Written by {@linkcode writeMcpServer} / {@linkcode removeMcpServer}, which validate the
 * entry first and replace the file atomically with the rest of the config unchanged.
 *
 * @example
 * ```ts
 * await writeMcpServer(paths.config, "files", {
 *   command: "node",
 *   args: ["server.js", "/tmp/work"],
 * });
 * ```
 *
 * @module
 */
import { z } from "zod";
import { ConfigError } from "./errors.ts";
import { configIssues, formatIssues } from "./_config_yaml.ts";
import { readConfig, updateConfig } from "./config_file.ts";
import {
  type McpConfig,
  McpConfigSchema,
  type McpServerConfig,
  type McpServerConfigInput,
} from "./config_mcp_schema.ts";

export type {
  McpConfig,
  McpConfigInput,
  McpServerConfig,
  McpServerConfigInput,
} from "./config_mcp_schema.ts";
export { MCP_SERVER_NAME } from "./config_mcp_schema.ts";

/**
 * Validates one server entry without writing anything.
 *
 * @param path the config file, named in the error
 * @param name the server's name
 * @param entry the entry
 * @returns the entry with defaults filled in
 * @throws {ConfigError} `config_invalid` naming the field (`mcp.servers.<name>.url`)
 */
export function checkMcpServer(path: string, name: string, entry: unknown): McpServerConfig {
  const section = { servers: { [name]: entry } };
  const checked = z.strictObject({ mcp: McpConfigSchema }).safeParse({ mcp: section });
  if (!checked.success) {
    const issues = configIssues(checked.error, { mcp: section });
    throw new ConfigError("config_invalid", path, formatIssues(path, issues), issues);
  }
  return checked.data.mcp.servers[name] as McpServerConfig;
}

/**
 * The `mcp` section as stored, defaults filled in (no servers when absent).
 *
 * @param path the config file, from `homePaths(home).config`
 * @returns the section
 * @throws {ConfigError} every error of {@linkcode readConfig}
 */
export async function readMcpConfig(path: string): Promise<McpConfig> {
  return (await readConfig(path)).mcp ?? { servers: {} };
}

/**
 * Adds or replaces one server entry (validated first; the file is untouched when it is
 * refused).
 *
 * @param path the config file
 * @param name the server's name
 * @param entry the entry
 * @returns the entry as written
 * @throws {ConfigError} `config_invalid` naming the field, and every error of
 *   {@linkcode updateConfig}
 */
export async function writeMcpServer(
  path: string,
  name: string,
  entry: McpServerConfigInput,
): Promise<McpServerConfig> {
  checkMcpServer(path, name, entry);
  const written = await updateConfig(path, (config) => ({
    ...config,
    mcp: { servers: { ...config.mcp?.servers, [name]: entry as McpServerConfig } },
  }));
  return written.mcp!.servers[name] as McpServerConfig;
}

/**
 * Changes one server entry with `change` (read-modify-write, validated).
 *
 * @param path the config file
 * @param name the server's name
 * @param change receives a copy of the entry, returns the new one
 * @returns the entry as written, or null when there is no such server (nothing written)
 * @throws {ConfigError} as {@linkcode writeMcpServer}
 */
export async function changeMcpServer(
  path: string,
  name: string,
  change: (entry: McpServerConfig) => McpServerConfig,
): Promise<McpServerConfig | null> {
  if (!Object.hasOwn((await readMcpConfig(path)).servers, name)) return null;
  let found = false;
  const written = await updateConfig(path, (config) => {
    const current = config.mcp?.servers[name];
    if (current === undefined) return config;
    found = true;
    const next = change(structuredClone(current));
    checkMcpServer(path, name, next);
    return { ...config, mcp: { servers: { ...config.mcp!.servers, [name]: next } } };
  });
  return found ? written.mcp!.servers[name] as McpServerConfig : null;
}

/**
 * Removes one server entry.
 *
 * @param path the config file
 * @param name the server's name
 * @returns whether there was one
 * @throws {ConfigError} every error of {@linkcode updateConfig}
 */
export async function removeMcpServer(path: string, name: string): Promise<boolean> {
  const current = await readMcpConfig(path);
  if (!Object.hasOwn(current.servers, name)) return false;
  await updateConfig(path, (config) => {
    const { [name]: _removed, ...rest } = config.mcp?.servers ?? {};
    return { ...config, mcp: { servers: rest } };
  });
  return true;
}
