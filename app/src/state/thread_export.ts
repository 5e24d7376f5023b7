/**
 * Downloads the open thread's export (`GET /api/threads/<id>/export`, the runtime's
 * streamed export, authenticated by the session cookie like the attachment images) and
 * saves it under a name made from the title.
 *
 * @module
 */
import { t } from "../i18n/i18n.ts";
import { exportFileName, type ThreadExportFormat } from "./export_name.ts";
import { report } from "./store.ts";

/**
 * Fetches the export and hands it to the browser as a download.
 *
 * @param threadId the thread
 * @param title its title, for the file name
 * @param format `markdown` or `jsonl`
 * @returns true once the download was handed to the browser; false when it failed (the
 *   error is reported)
 */
export async function downloadThreadExport(
  threadId: string,
  title: string,
  format: ThreadExportFormat,
): Promise<boolean> {
  try {
    const response = await fetch(
      `/api/threads/${encodeURIComponent(threadId)}/export?format=${format}`,
      { credentials: "same-origin" },
    );
    if (!response.ok) {
      const code = await response.json().then((body) => body?.error?.code, () => null);
      report(t(code === "thread_not_found" ? "header.exportNothing" : "header.exportFailed"));
      return false;
    }
    const url = URL.createObjectURL(await response.blob());
    try {
      const link = document.createElement("a");
      link.href = url;
      link.download = exportFileName(title, threadId, format);
      document.body.append(link);
      link.click();
      link.remove();
    } finally {
      // After the click the browser holds the blob; the URL is no longer needed.
      setTimeout(() => URL.revokeObjectURL(url), 0);
    }
    return true;
  } catch {
    report(t("header.exportFailed"));
    return false;
  }
}
