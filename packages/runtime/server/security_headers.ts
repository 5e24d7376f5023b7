/**
 * The headers every file of the app is served with. The page runs with the user's
 * full authority over their machine (an injected script could start processes), so the
 * browser is told to run nothing but the app's own files, to talk to nothing but this
 * runtime, to never let another page frame it (another port on 127.0.0.1 is the same
 * site, so the SameSite=Strict cookie would be sent to a framed app), and to send no
 * referrer anywhere.
 *
 * The built app is CSP-clean: no inline script or `<style>`, no `style="…"` in HTML
 * (styles set from JS through `element.style` are not governed by `style-src`), no
 * `eval`. `tests/browser/login_security_test.ts` checks a normal flow reports no violation.
 *
 * @module
 */

/**
 * The Content-Security-Policy for a page reached at `host`.
 *
 * @param host the request's Host header (already accepted by the Host guard), e.g.
 *   `127.0.0.1:7420`; it names the WebSocket origin explicitly
 * @returns the policy
 */
export function contentSecurityPolicy(host: string): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    // Attachment thumbnails are `/attachments/…` on this origin; nothing else is drawn.
    "img-src 'self'",
    "font-src 'self'",
    `connect-src 'self' ws://${host}`,
    "worker-src 'self'",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-src 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/**
 * Every security header for a file of the app.
 *
 * @param host the request's Host header
 * @returns the headers to add
 */
export function appSecurityHeaders(host: string): Record<string, string> {
  return {
    "content-security-policy": contentSecurityPolicy(host),
    "x-frame-options": "DENY",
    "referrer-policy": "no-referrer",
    "cross-origin-opener-policy": "same-origin",
    "x-content-type-options": "nosniff",
  };
}
