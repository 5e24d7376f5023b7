/**
 * The `daedalus` command table: every command with its positional arguments and flags,
 * each described once. The parser (args.ts) accepts exactly these and the help (help.ts)
 * prints exactly these, so a flag cannot work without being documented or the reverse.
 *
 * @module
 */

/** One flag of a command. */
export interface OptionSpec {
  /** `string` takes a value; `boolean` is a switch. */
  readonly type: "string" | "boolean";
  /** A one-letter alias (`-h`). */
  readonly short?: string;
  /** May be given more than once (the values are collected in order). */
  readonly multiple?: boolean;
  /** The value's placeholder in the help (`DIR`, `PROVIDER/MODEL`). */
  readonly value?: string;
  /** What it does, one line. */
  readonly description: string;
}

/** One command. */
export interface CommandSpec {
  /** The one-line summary of the overview. */
  readonly summary: string;
  /** The positional part of the synopsis (`[PROMPT|-]`). */
  readonly synopsis: string;
  /** Fewest and most positional arguments after the command's name. */
  readonly positionals: { readonly min: number; readonly max: number };
  /** Its flags by long name, `--help` excepted (every command has it). */
  readonly options: Readonly<Record<string, OptionSpec>>;
  /** More lines for `daedalus help COMMAND`: exit codes, environment, examples. */
  readonly notes?: readonly string[];
}

const HOME: OptionSpec = {
  type: "string",
  value: "DIR",
  description: "the runtime home (default $DAEDALUS_HOME, else ~/.daedalus)",
};
const HOST: OptionSpec = {
  type: "string",
  value: "HOST",
  description: "address of the runtime (default $DAEDALUS_HOST, else 127.0.0.1)",
};
const PORT: OptionSpec = {
  type: "string",
  value: "PORT",
  description: "port of the runtime; 0 picks a free one (default $DAEDALUS_PORT, else 7420)",
};
const JSON_OUTPUT: OptionSpec = { type: "boolean", description: "print JSON instead of text" };

/** The commands, in the order the overview lists them. */
export const COMMANDS = {
  serve: {
    summary: "run the runtime and its web app (the default command)",
    synopsis: "",
    positionals: { min: 0, max: 0 },
    options: { host: HOST, port: PORT, home: HOME },
  },
  run: {
    summary: "run one turn headless and print it as it streams",
    synopsis: "[PROMPT|-]",
    positionals: { min: 0, max: 1 },
    options: {
      model: {
        type: "string",
        value: "PROVIDER/MODEL",
        description: "the model (default: the --agent profile's, else the thread's last " +
          "one, else its agent profile's, else the default model of Settings, else the only " +
          "enabled one)",
      },
      thread: { type: "string", value: "ID", description: "continue this thread" },
      agent: {
        type: "string",
        value: "ID",
        description: "the agent profile (build, plan, explore or a saved one): a new thread " +
          "is bound to it, an existing one switched to it (default: the thread's)",
      },
      continue: { type: "boolean", short: "c", description: "continue the newest thread" },
      workspace: {
        type: "string",
        value: "DIR",
        description: "the project folder of a new thread (default: a managed folder)",
      },
      permission: {
        type: "string",
        value: "PRESET",
        description: "read_only, workspace_write, ask or full_access (default: config.yaml's)",
      },
      json: {
        type: "boolean",
        description: "print the Run's events as JSON lines, then one summary line",
      },
      attach: {
        type: "string",
        multiple: true,
        value: "FILE",
        description: "attach an image or text file (repeatable, at most 8)",
      },
      timeout: {
        type: "string",
        value: "S",
        description: "cancel the Run after S seconds (exit 1)",
      },
      home: HOME,
    },
    notes: [
      "The prompt is the argument, or standard input with `-` (or when the argument is",
      "missing and standard input is not a terminal). The answer goes to stdout; tool",
      "activity and progress go to stderr (coloured only on a terminal, never with NO_COLOR).",
      "When a runtime already holds the home, the turn runs there (visible in its web app);",
      "otherwise this process opens the home, runs the turn and exits.",
      "A Run that needs an approval cannot be answered headless: it is cancelled and the",
      "message names the tool and the --permission preset that would allow it.",
      "With --agent and no --model the turn uses the profile's model, when it names one.",
      "Exit codes: 0 completed, 1 failed or cancelled, 2 usage error, 130 interrupted (SIGINT).",
      "Example: git diff | daedalus run - --json | jq -r 'select(.type==\"summary\").status'",
    ],
  },
  threads: {
    summary: "list the threads, newest first",
    synopsis: "",
    positionals: { min: 0, max: 0 },
    options: {
      json: { ...JSON_OUTPUT, description: "print one JSON thread object per line" },
      home: HOME,
    },
  },
  show: {
    summary: "print a thread's transcript",
    synopsis: "THREAD",
    positionals: { min: 1, max: 1 },
    options: {
      json: { ...JSON_OUTPUT, description: "print one JSON object {thread, turns}" },
      home: HOME,
    },
  },
  login: {
    summary: "print a fresh one-time login URL of the running runtime",
    synopsis: "",
    positionals: { min: 0, max: 0 },
    options: { host: HOST, port: PORT, home: HOME },
  },
  token: {
    summary: "print the access token",
    synopsis: "",
    positionals: { min: 0, max: 0 },
    options: {
      rotate: {
        type: "boolean",
        description: "replace the token first (signs every browser session out)",
      },
      home: HOME,
    },
  },
  storage: {
    summary: "check, verify, back up, repair or export the home's storage",
    synopsis: "check|verify|backup|repair-projections|export",
    positionals: { min: 1, max: 1 },
    options: {
      head: {
        type: "string",
        value: "SEQ:HASH",
        description: "verify: the head an earlier verify reported",
      },
      output: { type: "string", value: "FILE", description: "backup: the backup file to write" },
      thread: { type: "string", value: "ID", description: "export: the thread to export" },
      format: {
        type: "string",
        value: "jsonl|markdown",
        description: "export: the format (default jsonl)",
      },
      home: HOME,
    },
  },
  version: {
    summary: "print the version",
    synopsis: "",
    positionals: { min: 0, max: 0 },
    options: {},
  },
  help: {
    summary: "print this overview, or one command's flags",
    synopsis: "[COMMAND]",
    positionals: { min: 0, max: 1 },
    options: {},
  },
} as const satisfies Record<string, CommandSpec>;

/** A command's name. */
export type CommandName = keyof typeof COMMANDS;

/**
 * Whether `name` is a command.
 *
 * @param name a word from the command line
 * @returns true for the names of {@linkcode COMMANDS}
 */
export function isCommandName(name: string): name is CommandName {
  return Object.hasOwn(COMMANDS, name);
}
