/**
 * The process side of the headless commands (`run`, `threads`, `show`): the real stdout
 * and stderr (written whole, a closed pipe ends the output quietly), standard input for
 * the prompt, SIGINT, NO_COLOR, and the {@linkcode HomeSession} opened for the command and
 * closed after it, whatever happens.
 *
 * @module
 */
import type { CommandLine } from "./args.ts";
import { UsageError } from "./args.ts";
import { openHomeSession } from "./home_session.ts";
import { readRunRequest } from "./run_options.ts";
import { describeAttachments } from "./run_attachments.ts";
import { runTurn } from "./run.ts";
import type { RunStreams } from "./run_output.ts";
import { listThreads, showThread } from "./threads.ts";

/**
 * Runs `daedalus run`.
 *
 * @param line the parsed command line
 * @returns the exit code
 * @throws {UsageError} for bad flags, an empty prompt, a bad attachment, an unknown thread or model
 */
export async function runCommand(line: CommandLine): Promise<number> {
  const env = Deno.env.toObject();
  const request = readRunRequest(line.positionals, line.values, {
    cwd: Deno.cwd(),
    stdinIsTerminal: Deno.stdin.isTerminal(),
  });
  if (request.thread.kind === "new" && request.thread.workspace !== null) {
    await checkDirectory(request.thread.workspace);
  }
  const prompt = request.prompt.kind === "text"
    ? request.prompt.text
    : await new Response(Deno.stdin.readable).text();
  if (prompt.trim() === "") throw new UsageError("The prompt on standard input is empty", "run");
  const attachments = await describeAttachments(request.attachments);
  const session = await openHomeSession({ home: stringFlag(line, "home"), env });
  try {
    return await runTurn(session, request, {
      streams: processStreams(env),
      content: { prompt, attachments },
      onInterrupt: (listener) => {
        Deno.addSignalListener("SIGINT", listener);
        return () => Deno.removeSignalListener("SIGINT", listener);
      },
    });
  } finally {
    await session.close();
  }
}

/**
 * Runs `daedalus threads` or `daedalus show THREAD`.
 *
 * @param line the parsed command line
 * @returns the exit code
 * @throws {UsageError} when `show` names no thread that exists
 */
export async function catalogCommand(line: CommandLine): Promise<number> {
  const env = Deno.env.toObject();
  const streams = processStreams(env);
  const session = await openHomeSession({ home: stringFlag(line, "home"), env });
  try {
    const json = line.values.json === true;
    return line.command === "show"
      ? await showThread(session, line.positionals[0]!, json, streams.stdout)
      : await listThreads(session, json, streams.stdout);
  } finally {
    await session.close();
  }
}

function stringFlag(line: CommandLine, name: string): string | undefined {
  const value = line.values[name];
  return typeof value === "string" ? value : undefined;
}

async function checkDirectory(path: string): Promise<void> {
  const info = await Deno.stat(path).catch(() => null);
  if (!info?.isDirectory) throw new UsageError(`--workspace ${path}: not a directory`, "run");
}

/** The process's stdout and stderr; colour on a terminal stderr unless NO_COLOR is set. */
function processStreams(env: Readonly<Record<string, string | undefined>>): RunStreams {
  const encoder = new TextEncoder();
  const closed = { stdout: false, stderr: false };
  const writer = (file: typeof Deno.stdout, name: keyof typeof closed) => (text: string) => {
    if (closed[name]) return;
    const bytes = encoder.encode(text);
    try {
      for (let at = 0; at < bytes.length;) at += file.writeSync(bytes.subarray(at));
    } catch (error) {
      // `daedalus run … | head -1`: the reader left; the Run goes on to its end unprinted.
      if (!(error instanceof Deno.errors.BrokenPipe)) throw error;
      closed[name] = true;
    }
  };
  return {
    stdout: writer(Deno.stdout, "stdout"),
    stderr: writer(Deno.stderr, "stderr"),
    colour: Deno.stderr.isTerminal() && !env.NO_COLOR,
  };
}
