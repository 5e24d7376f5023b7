/**
 * The lazily loaded highlighting chunk: the highlighter and its colours (CSS imports
 * live here, not in `highlight.ts`, so unit tests can import that one).
 *
 * @module
 */
import "./highlight.css";

export { highlightCode } from "./highlight.ts";
