/**
 * The `daedalus` command: `serve` (the default), `run` (one headless Turn), `threads`,
 * `show`, `login`, `token [--rotate]`, `version`, `help`, and `storage check|verify [--head
 * SEQ:HASH]|backup --output FILE|repair-projections|export --thread ID [--format
 * jsonl|markdown]`. The command table (cli/commands.ts) defines every flag; `daedalus help
 * COMMAND` prints them. Machine-readable results go to stdout, everything else to stderr;
 * a usage error is one line on stderr and exit code 2.
 *
 * Each command's modules are loaded when it runs: `daedalus run` never loads the HTTP
 * server or the web app, `daedalus version` loads nothing.
 *
 * @module
 */
import { type CommandLine, flagMap, parseCommandLine, UsageError } from "./cli/args.ts";
import { commandHelp, overviewHelp } from "./cli/help.ts";
import { isCommandName } from "./cli/commands.ts";
import { RUNTIME_VERSION } from "./version.ts";
import { load } from "./cli/_load.ts";

/**
 * Runs the command line.
 *
 * @param args the arguments after the program name
 * @returns the exit code
 */
export async function main(args: string[]): Promise<number> {
  let line: CommandLine;
  try {
    line = parseCommandLine(args);
  } catch (error) {
    if (error instanceof UsageError) return usage(error);
    throw error;
  }
  try {
    return await dispatch(line);
  } catch (error) {
    if (error instanceof UsageError) return usage(error);
    throw error;
  }
}

async function dispatch(line: CommandLine): Promise<number> {
  const { command } = line;
  if (line.help || command === "help") return help(line);
  const flags = flagMap(line.values);
  switch (command) {
    case "version":
      console.log(`daedalus ${RUNTIME_VERSION}`);
      return 0;
    case "serve": {
      // Loaded on use like every command: it alone needs the HTTP server, the gateway and
      // the app. (Cheap only with `--node-modules-dir=manual`, see scripts/runtime_flags.ts.)
      const { serve }: typeof import("./cli/serve.ts") = await load(
        "./cli/serve.ts",
        import.meta.url,
      );
      return await startup(() => serve(flags));
    }
    case "login": {
      const { login }: typeof import("./cli/login.ts") = await load(
        "./cli/login.ts",
        import.meta.url,
      );
      return await startup(() => login(flags, Deno.env.toObject()));
    }
    case "token": {
      const { token }: typeof import("./cli/maintenance.ts") = await load(
        "./cli/maintenance.ts",
        import.meta.url,
      );
      return await startup(() => token(flags));
    }
    case "run": {
      await load("./cli/jitless_schemas.ts", import.meta.url);
      const { runCommand }: typeof import("./cli/headless.ts") = await load(
        "./cli/headless.ts",
        import.meta.url,
      );
      return await startup(() => runCommand(line), "daedalus run");
    }
    case "threads":
    case "show": {
      await load("./cli/jitless_schemas.ts", import.meta.url);
      const { catalogCommand }: typeof import("./cli/headless.ts") = await load(
        "./cli/headless.ts",
        import.meta.url,
      );
      return await startup(() => catalogCommand(line), `daedalus ${command}`);
    }
    case "storage": {
      const { storage }: typeof import("./cli/maintenance.ts") = await load(
        "./cli/maintenance.ts",
        import.meta.url,
      );
      return await storage(line.positionals[0]!, flags);
    }
  }
}

function help(line: CommandLine): number {
  if (line.command === "help") {
    const topic = line.positionals[0];
    if (topic === undefined) return print(overviewHelp());
    if (!isCommandName(topic)) {
      return usage(new UsageError(`help: unknown command "${topic}"`));
    }
    return print(commandHelp(topic));
  }
  return print(line.defaulted ? overviewHelp() : commandHelp(line.command));
}

function print(text: string): number {
  Deno.stdout.writeSync(new TextEncoder().encode(text));
  return 0;
}

/**
 * Runs a command, turning its failures into one clear line and exit code 1 (a usage error
 * goes on to exit code 2).
 */
async function startup(run: () => Promise<number>, prefix = "daedalus"): Promise<number> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const code = (error as { code?: unknown }).code;
    console.error(
      `${prefix}: ${(error as Error).message}${typeof code === "string" ? ` (${code})` : ""}`,
    );
    return 1;
  }
}

/** One line on stderr naming the problem and where the flags are described; exit code 2. */
function usage(error: UsageError): number {
  const where = error.command ? `daedalus help ${error.command}` : "daedalus --help";
  console.error(`daedalus: ${error.message} (see \`${where}\`)`);
  return 2;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
