import { signal } from "@preact/signals";
import { useEffect } from "preact/hooks";
import { COLLAPSE_CHARS } from "./limits.ts";
import "./markdown_plain.css";

type Renderer = typeof import("./RichMarkdown.tsx");

/**
 * The Markdown renderer (markdown-it and the walker, ~45 KB gzip) is its own chunk so the
 * first load stays within its budget; it is fetched as soon as this module runs, i.e.
 * while the app starts, and precached by the service worker like every chunk.
 */
const renderer = signal<Renderer | null>(null);
let loading: Promise<void> | null = null;

function loadRenderer(): void {
  loading ??= import("./RichMarkdown.tsx").then(
    (module) => void (renderer.value = module),
    (error) => {
      loading = null; // a failed fetch (offline mid-deploy) is retried by the next answer
      console.error(error);
    },
  );
}
loadRenderer();

/**
 * Assistant text as safe GitHub-flavoured Markdown (see `RichMarkdown.tsx`); until the
 * renderer's chunk has arrived, the text as plain text (its start only, for a huge one).
 *
 * @param props.text the Markdown source
 * @param props.streaming whether the answer is still streaming (its last block then draws
 *   the caret, see feed.css)
 */
export function Markdown(props: { text: string; streaming?: boolean }) {
  const loaded = renderer.value;
  useEffect(() => {
    if (!loaded) loadRenderer();
  }, [loaded]);
  if (loaded) return <loaded.RichMarkdown text={props.text} streaming={props.streaming} />;
  return (
    <div class={props.streaming ? "markdown streaming" : "markdown"}>
      <p class="md-plain">{props.text.slice(0, COLLAPSE_CHARS)}</p>
    </div>
  );
}
