import type { ToolKind } from "./tool_summary.ts";

/** 16×16 outline paths (stroke only), one per kind of tool. */
const PATHS: Readonly<Record<ToolKind, string>> = {
  // a page with a folded corner
  read: "M4 1.5h5.5L12.5 4.5v10h-8.5z M9.5 1.5v3h3 M6 8h4.5 M6 10.5h4.5",
  // a pencil
  change: "M10.5 2.5l3 3-8 8H2.5v-3z M9 4l3 3",
  // a magnifier
  search: "M7 2.5a4.5 4.5 0 1 1 0 9a4.5 4.5 0 1 1 0-9z M10.3 10.3l3.7 3.7",
  // a terminal prompt
  process: "M1.5 2.5h13v11h-13z M4 6l2.5 2L4 10 M8 10.5h4",
  // a bookmark
  memory: "M4 1.5h8v13l-4-3-4 3z",
  // a node handing work to two others
  subagent:
    "M8 2.5a1.75 1.75 0 1 1 0 3.5a1.75 1.75 0 1 1 0-3.5z M8 6v2.5 M8 8.5L3.5 11.5 M8 8.5l4.5 3 M3.5 11.5v2 M12.5 11.5v2",
  // a clock
  history: "M8 1.5a6.5 6.5 0 1 1 0 13a6.5 6.5 0 1 1 0-13z M8 4.5V8l2.5 1.5",
  // a speech bubble
  thread: "M2 2.5h12v8.5H7l-3 2.5V11H2z",
  // a plug
  mcp: "M5.5 1.5v3 M10.5 1.5v3 M3.5 4.5h9v3a4.5 4.5 0 0 1-9 0z M8 12v2.5",
  // a wrench
  other:
    "M10.5 1.8a3.5 3.5 0 0 0-3.3 4.6L2 11.6 4.4 14l5.2-5.2a3.5 3.5 0 0 0 4.6-3.3l-2 2-2.2-.5-.5-2.2z",
};

/** The icon of a kind of tool: decorative (the verb says what happened). */
export function ToolIcon(props: { kind: ToolKind }) {
  return (
    <svg
      class={`tool-icon tool-icon-${props.kind}`}
      viewBox="0 0 16 16"
      width="16"
      height="16"
      aria-hidden="true"
      focusable="false"
    >
      <path
        d={PATHS[props.kind]}
        fill="none"
        stroke="currentColor"
        stroke-width="1.3"
        stroke-linecap="round"
        stroke-linejoin="round"
      />
    </svg>
  );
}
