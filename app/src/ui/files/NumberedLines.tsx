/** One row of a listing with line numbers. */
export interface NumberedLine {
  key: string | number;
  /** The number cells: one for a file, the old and the new line for a diff ("" for none). */
  numbers: readonly (number | "")[];
  /** A diff's +/− column (hidden from screen readers, the row's class says it); absent for a file. */
  marker?: string;
  /** The row's class, e.g. a diff's `diff-add`. */
  rowClass?: string;
  /** A heading row (a diff's `@@` hunk or `---`/`+++` line): its text spans every column. */
  spanning?: boolean;
  text: string;
}

/**
 * Lines of a file or a diff as a table: number cells, an optional marker, then the text.
 * The file panel and the diff dialog both show lines this way.
 */
export function NumberedLines(
  props: { tableClass: string; label: string; lines: readonly NumberedLine[] },
) {
  return (
    <table class={props.tableClass} aria-label={props.label}>
      <tbody>
        {props.lines.map((line) => (
          <tr key={line.key} class={line.rowClass}>
            {line.spanning
              ? (
                <td colSpan={line.numbers.length + (line.marker !== undefined ? 2 : 1)}>
                  <code>{line.text}</code>
                </td>
              )
              : (
                <>
                  {line.numbers.map((number, index) => (
                    <td key={index} class="line-number">{number}</td>
                  ))}
                  {line.marker !== undefined && (
                    <td class="marker" aria-hidden="true">{line.marker}</td>
                  )}
                  <td>
                    <code>{line.text}</code>
                  </td>
                </>
              )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
