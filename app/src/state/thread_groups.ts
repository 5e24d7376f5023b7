/**
 * The sidebar's grouping: threads in a managed workspace are listed on their own, and
 * threads of a project folder are grouped under that project. Groups follow their most
 * recent thread, so the project being worked on rises to the top like a thread does.
 *
 * @module
 */
import type { Thread } from "@daedalus/client";

/** A project (a folder threads share) and its threads, most recent first. */
export interface ProjectGroup {
  /** The folder's path without trailing separators: each thread has its own workspace
   * record, so the folder is what threads of one project have in common. */
  id: string;
  name: string;
  /** The folder's absolute path, or null when the runtime cannot see it. */
  rootUri: string | null;
  threads: Thread[];
}

/** The sidebar's list, grouped. */
export interface ThreadGroups {
  /** Threads with their own managed folder (or none), most recent first. */
  threads: Thread[];
  projects: ProjectGroup[];
}

/**
 * Groups threads (already sorted most recent first) by project workspace.
 *
 * @param list the visible threads, most recent first
 * @returns the managed threads and the project groups, in recency order
 */
export function groupThreads(list: readonly Thread[]): ThreadGroups {
  const threads: Thread[] = [];
  const byId = new Map<string, ProjectGroup>();
  for (const thread of list) {
    const workspace = thread.workspace;
    if (!workspace || workspace.kind !== "project") {
      threads.push(thread);
      continue;
    }
    const key = folderKey(workspace.rootUri) ?? workspace.id;
    let group = byId.get(key);
    if (!group) {
      // Named as the most recent thread names it.
      group = { id: key, name: workspace.name, rootUri: workspace.rootUri, threads: [] };
      byId.set(key, group);
    }
    group.threads.push(thread);
  }
  // Map keeps insertion order: the group of the most recent thread came first.
  return { threads, projects: [...byId.values()] };
}

function folderKey(rootUri: string | null): string | null {
  if (rootUri === null) return null;
  const trimmed = rootUri.replace(/[\\/]+$/, "");
  return trimmed === "" ? rootUri : trimmed;
}
