/** Every mail send limit counts in windows of this length, aligned to the clock. */
export const MAIL_SEND_WINDOW_MS = 3_600_000;

/** The window an instant falls in, by number, and when it ends (ms since the epoch). */
export function mailSendWindow(nowMs: number): { readonly index: number; readonly endsAt: number } {
  const index = Math.floor(nowMs / MAIL_SEND_WINDOW_MS);
  return { index, endsAt: (index + 1) * MAIL_SEND_WINDOW_MS };
}
