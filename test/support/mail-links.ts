/** The token a message's link carries, as the console page named by `page` reads it. */
export function linkToken(text: string, page: string): string {
  const match = new RegExp(`/console/${page}\\?token=([0-9a-f]{64})`).exec(text);
  if (!match) throw new Error(`no /console/${page} link in: ${text}`);
  return match[1]!;
}
