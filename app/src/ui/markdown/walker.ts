/**
 * markdown-it tokens → Preact vnodes. Only the elements listed here are ever made, every
 * text is a string child that Preact escapes, link targets pass `safeHref` again, images
 * never load (an answer could carry a tracking or data-leaking image URL: they become
 * links the user may follow), and unknown tokens become their text. Nothing here uses
 * innerHTML.
 *
 * @module
 */
import { type ComponentChildren, h, type VNode } from "preact";
import type { Token } from "./parser.ts";
import { safeHref } from "./safe_href.ts";
import { CodeBlock } from "./CodeBlock.tsx";
import { t } from "../../i18n/i18n.ts";

/** What the walker needs from the message it renders. */
export interface WalkContext {
  /** Prefix of footnote ids, unique per rendered message (a feed shows many). */
  readonly idPrefix: string;
}

interface Frame {
  readonly token: Token | null;
  readonly children: ComponentChildren[];
  /** Set on a list when one of its items is a task. */
  hasTask?: boolean;
  /** A task list item's box: checked or not. */
  task?: boolean;
}

// A GFM task list item starts with "[ ]" or "[x]" followed by a space (or nothing).
const TASK = /^\[([ xX])\](?:[ \t]+|$)/;

/** A token attribute as a string (markdown-it types them loosely). */
function attr(token: Token, name: string): string | null {
  const value = token.attrGet(name);
  return value === null || value === undefined ? null : String(value);
}

/** The footnote (`fn`) and reference (`ref`) ids of a footnote token's `meta.id` (0-based). */
function footnoteIds(ctx: WalkContext, meta: unknown) {
  const { id, subId } = (meta ?? {}) as { id?: unknown; subId?: unknown };
  const n = typeof id === "number" ? id + 1 : 0;
  const sub = typeof subId === "number" && subId > 0 ? `-${subId}` : "";
  return { fn: `${ctx.idPrefix}-fn-${n}`, ref: `${ctx.idPrefix}-fnref-${n}${sub}`, n };
}

/**
 * Footnote links move within the page without touching the address: the app's own
 * routes live in the URL's hash.
 */
function jumpTo(id: string) {
  return (event: Event) => {
    event.preventDefault();
    document.getElementById(id)?.scrollIntoView({ block: "center" });
  };
}

function linkProps(href: string, title: string | null) {
  return {
    href,
    rel: "noopener noreferrer",
    target: "_blank",
    ...(title ? { title } : {}),
  };
}

function alignClass(token: Token): Record<string, string> | null {
  const align = /text-align:(left|center|right)/.exec(attr(token, "style") ?? "")?.[1];
  return align ? { class: `md-align-${align}` } : null;
}

/** The element a closed container becomes. */
function element(frame: Frame, parent: Frame, ctx: WalkContext): ComponentChildren[] {
  const token = frame.token!;
  const kids = frame.children;
  switch (token.type) {
    case "paragraph_open":
      // A tight list's paragraphs are hidden: their text sits in the item itself.
      return token.hidden ? kids : [h("p", null, kids)];
    case "heading_open":
      return [h(/^h[1-6]$/.test(token.tag) ? token.tag : "h6", null, kids)];
    case "blockquote_open":
      return [h("blockquote", null, kids)];
    case "bullet_list_open":
      return [h("ul", frame.hasTask ? { class: "contains-task-list" } : null, kids)];
    case "ordered_list_open": {
      const start = Number(attr(token, "start") ?? "1");
      const props: Record<string, unknown> = Number.isSafeInteger(start) && start !== 1
        ? { start }
        : {};
      if (frame.hasTask) props.class = "contains-task-list";
      return [h("ol", props, kids)];
    }
    case "list_item_open":
      if (frame.task === undefined) return [h("li", null, kids)];
      parent.hasTask = true;
      return [
        h("li", { class: "task-list-item" }, [
          h("input", { type: "checkbox", disabled: true, checked: frame.task }),
          " ",
          ...kids,
        ]),
      ];
    case "table_open":
      // A wide table scrolls inside its own box instead of widening the answer.
      return [h("div", { class: "md-table" }, h("table", null, kids))];
    case "thead_open":
    case "tbody_open":
    case "tr_open":
      return [h(token.tag, null, kids)];
    case "th_open":
    case "td_open":
      return [h(token.tag, alignClass(token), kids)];
    case "strong_open":
      return [h("strong", null, kids)];
    case "em_open":
      return [h("em", null, kids)];
    case "s_open":
      return [h("del", null, kids)];
    case "link_open": {
      const href = safeHref(attr(token, "href") ?? "");
      return href === null
        ? [h("span", { class: "md-unsafe-link" }, kids)]
        : [h("a", linkProps(href, attr(token, "title")), kids)];
    }
    case "footnote_block_open":
      return [
        h("section", { class: "md-footnotes", "aria-label": t("markdown.footnotes") }, [
          h("ol", null, kids),
        ]),
      ];
    case "footnote_open":
      return [h("li", { id: footnoteIds(ctx, token.meta).fn }, kids)];
    default:
      // A container this walker does not know: its content, never its markup.
      return kids;
  }
}

/** A token without children of its own (inline tokens carry theirs). */
function leaf(token: Token, ctx: WalkContext, strip: number): ComponentChildren[] {
  switch (token.type) {
    case "inline":
      return walk(token.children ?? [], ctx, strip);
    case "text": {
      const text = strip ? token.content.slice(strip) : token.content;
      return text ? [text] : [];
    }
    case "softbreak": // `breaks` is on: a newline in a paragraph is a line break
    case "hardbreak":
      return [h("br", null)];
    case "code_inline":
      return [h("code", null, token.content)];
    case "fence":
      // The fence's last newline ends the block; it is not part of the code.
      return [h(CodeBlock, { info: token.info, code: token.content.replace(/\n$/, "") })];
    case "code_block":
      return [h(CodeBlock, { info: "", code: token.content.replace(/\n$/, "") })];
    case "hr":
      return [h("hr", null)];
    case "image": {
      const href = safeHref(attr(token, "src") ?? "");
      const label = t("markdown.image", { alt: token.content || (href ?? "") });
      return href === null
        ? [h("span", { class: "md-unsafe-link" }, label)]
        : [h("a", { ...linkProps(href, attr(token, "title")), class: "md-image" }, label)];
    }
    case "footnote_ref": {
      const { fn, ref, n } = footnoteIds(ctx, token.meta);
      return [
        h("sup", { class: "footnote-ref" }, [
          h("a", { href: `#${fn}`, id: ref, onClick: jumpTo(fn) }, `[${n}]`),
        ]),
      ];
    }
    case "footnote_anchor": {
      const { ref } = footnoteIds(ctx, token.meta);
      return [
        " ",
        h("a", {
          href: `#${ref}`,
          class: "footnote-backref",
          "aria-label": t("markdown.footnoteBack"),
          onClick: jumpTo(ref),
        }, "↩"),
      ];
    }
    default:
      // html_block / html_inline cannot occur (html is off); anything else is its text.
      return token.content ? [token.content] : [];
  }
}

/** Whether a list item (at `i`) starts with a task box, and how long its marker is (-1: none). */
function taskMarker(tokens: readonly Token[], i: number): { checked: boolean; length: number } {
  const paragraph = tokens[i + 1];
  const inline = tokens[i + 2];
  const first = inline?.type === "inline" ? inline.children?.[0] : undefined;
  const match = paragraph?.type === "paragraph_open" && first?.type === "text"
    ? TASK.exec(first.content)
    : null;
  return match
    ? { checked: match[1] !== " ", length: match[0].length }
    : { checked: false, length: -1 };
}

function walk(tokens: readonly Token[], ctx: WalkContext, strip = 0): ComponentChildren[] {
  const root: Frame = { token: null, children: [] };
  const stack: Frame[] = [root];
  // The inline token whose first text loses its task marker, and by how much.
  let stripInline: Token | null = null;
  let stripLength = 0;
  let stripFirstText = strip;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    const top = stack.at(-1)!;
    if (token.nesting === 1) {
      const frame: Frame = { token, children: [] };
      if (token.type === "list_item_open") {
        const marker = taskMarker(tokens, i);
        if (marker.length >= 0) {
          frame.task = marker.checked;
          stripInline = tokens[i + 2]!;
          stripLength = marker.length;
        }
      }
      stack.push(frame);
    } else if (token.nesting === -1) {
      if (stack.length === 1) continue; // a stray closing token: nothing to close
      const frame = stack.pop()!;
      stack.at(-1)!.children.push(...element(frame, stack.at(-1)!, ctx));
    } else {
      const cut = token === stripInline ? stripLength : token.type === "text" ? stripFirstText : 0;
      if (token.type === "text") stripFirstText = 0;
      top.children.push(...leaf(token, ctx, cut));
    }
  }
  // Unbalanced tokens (never from markdown-it) still show their content.
  while (stack.length > 1) {
    const frame = stack.pop()!;
    stack.at(-1)!.children.push(...element(frame, stack.at(-1)!, ctx));
  }
  return root.children;
}

/**
 * Renders block tokens (one top-level block or the footnote section).
 *
 * @param tokens markdown-it block tokens, balanced
 * @param ctx the message's context
 * @returns the vnodes, in order
 */
export function renderTokens(tokens: readonly Token[], ctx: WalkContext): VNode[] {
  return walk(tokens, ctx) as VNode[];
}
