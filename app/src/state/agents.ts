/**
 * Agent profiles in the PWA (issue 21): `agent.list` for Settings › Agents and the thread
 * header's switch, `agent.save` / `agent.remove`, and `thread.set_agent`. Every function
 * takes the RPC call as a parameter so tests run without a server.
 *
 * @module
 */
import { type Signal, signal } from "@preact/signals";
import type { AgentInfo, AgentProfile, Thread } from "@daedalus/client";
import { type CallFailure, callFailure } from "./call_failure.ts";
import { liveCall, type RpcCall } from "./rpc_call.ts";

/** What Settings › Agents and the thread header show. */
export interface AgentsView {
  /** `loading` keeps the previous list on screen. */
  status: "idle" | "loading" | "ready" | "failed";
  /** Every profile, as `agent.list` orders them. */
  agents: AgentInfo[];
  /** The profile new threads are bound to. */
  defaultAgentId: string;
  /** The runtime's tool ids, for a profile's tool list. */
  tools: string[];
  /** The skill names of the skills folder, for a profile's skill list. */
  skills: string[];
  /** A save or removal waiting for its answer. */
  pending: boolean;
  /** The last failure, cleared by the next success. */
  error: CallFailure | null;
  /** What the last removal did, to say so. */
  removed: { agentId: string; movedTo: string; movedThreads: number } | null;
}

/** The state before the first load. */
export function emptyAgents(): AgentsView {
  return {
    status: "idle",
    agents: [],
    defaultAgentId: "build",
    tools: [],
    skills: [],
    pending: false,
    error: null,
    removed: null,
  };
}

/** The live state. */
export const agentsView: Signal<AgentsView> = signal<AgentsView>(emptyAgents());

/**
 * A new profile from an existing one: the same settings under a free id ("<id>-copy",
 * "<id>-copy-2", …) and a name saying it is a copy.
 *
 * @param source the profile copied
 * @param taken the ids in use
 * @param copyName the copy's name, from the source's (localized by the caller)
 * @returns the copy, not saved yet
 */
export function copyProfile(
  source: AgentProfile,
  taken: readonly string[],
  copyName: (name: string) => string,
): AgentProfile {
  const base = `${source.id}-copy`.slice(0, 64);
  let id = base;
  for (let n = 2; taken.includes(id); n++) id = `${base.slice(0, 60)}-${n}`;
  return { ...structuredClone(source), id, name: copyName(source.name).slice(0, 100) };
}

/**
 * A selection edited in the form: `null` is "all" (the key left out), a list is those.
 *
 * @param profile the profile
 * @param key which list
 * @param value null for all, else the names
 * @returns the profile with the list set or removed
 */
export function withSelection(
  profile: AgentProfile,
  key: "tools" | "skills",
  value: string[] | null,
): AgentProfile {
  const next = { ...profile };
  if (value === null) delete next[key];
  else next[key] = value;
  return next;
}

let generation = 0;

/**
 * Loads (or refreshes) the profiles and the tool and skill names they may select.
 *
 * @param call the RPC call, the app's connection by default
 */
export async function loadAgents(call: RpcCall = liveCall): Promise<void> {
  const mine = ++generation;
  agentsView.value = { ...agentsView.value, status: "loading" };
  try {
    const [listed, skills] = await Promise.all([
      call("agent.list", {}),
      call("skill.list", {}).catch(() => ({ skills: [], diagnostics: [] })),
    ]);
    if (mine !== generation) return;
    agentsView.value = {
      ...agentsView.value,
      status: "ready",
      agents: listed.agents,
      defaultAgentId: listed.defaultAgentId,
      tools: listed.tools,
      skills: skills.skills.map((skill) => skill.name).sort(),
      error: null,
    };
  } catch (error) {
    if (mine !== generation) return;
    agentsView.value = { ...agentsView.value, status: "failed", error: callFailure(error) };
  }
}

/**
 * Saves a profile (`agent.save`) and reloads the list.
 *
 * @param profile the profile
 * @param makeDefault whether new threads are bound to it from now on
 * @param call the RPC call
 * @returns whether it was saved (a refusal is in `error`, naming the field)
 */
export async function saveAgent(
  profile: AgentProfile,
  makeDefault: boolean,
  call: RpcCall = liveCall,
): Promise<boolean> {
  return await changing(async () => {
    await call("agent.save", { profile, ...(makeDefault ? { makeDefault } : {}) });
    agentsView.value = { ...agentsView.value, removed: null };
  }, call);
}

/**
 * Removes a saved profile (`agent.remove`); what happened to its threads is in `removed`.
 *
 * @param agentId the profile
 * @param call the RPC call
 * @returns whether it was removed
 */
export async function removeAgent(agentId: string, call: RpcCall = liveCall): Promise<boolean> {
  return await changing(async () => {
    const result = await call("agent.remove", { agentId });
    agentsView.value = {
      ...agentsView.value,
      removed: {
        agentId: result.agentId,
        movedTo: result.movedTo,
        movedThreads: result.movedThreads,
      },
    };
  }, call);
}

/**
 * Binds a thread to another profile (`thread.set_agent`).
 *
 * @param threadId the thread
 * @param agentId the profile
 * @param call the RPC call
 * @returns the thread as the runtime has it now
 */
export async function setThreadAgent(
  threadId: string,
  agentId: string,
  call: RpcCall = liveCall,
): Promise<Thread> {
  return (await call("thread.set_agent", { threadId, agentId })).thread;
}

/** The profile a thread runs: its binding when it still exists, else the default. */
export function agentOfThread(view: AgentsView, thread: Thread | undefined): AgentInfo | null {
  const bound = thread?.agentId;
  return view.agents.find((info) => info.profile.id === bound) ??
    view.agents.find((info) => info.profile.id === view.defaultAgentId) ?? null;
}

async function changing(work: () => Promise<void>, call: RpcCall): Promise<boolean> {
  if (agentsView.value.pending) return false;
  agentsView.value = { ...agentsView.value, pending: true };
  try {
    await work();
    agentsView.value = { ...agentsView.value, error: null };
    await loadAgents(call);
    return true;
  } catch (error) {
    agentsView.value = { ...agentsView.value, error: callFailure(error) };
    return false;
  } finally {
    agentsView.value = { ...agentsView.value, pending: false };
  }
}
