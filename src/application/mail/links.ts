import { MailInputInvalid, requireToken, type MailContext } from './mail-input';

/**
 * A console page's address under PUBLIC_URL, with the token in the query: the page takes it from
 * there and removes it from the address bar, so it stays out of history and of the Referer of
 * anything the page loads.
 */
export function consoleLink(context: MailContext, page: string, token?: string): string {
  let base: URL;
  try {
    base = new URL(context.publicUrl);
  } catch {
    throw new MailInputInvalid('publicUrl', 'must be an http:// or https:// URL');
  }
  if (base.protocol !== 'http:' && base.protocol !== 'https:') throw new MailInputInvalid('publicUrl', 'must be an http:// or https:// URL');
  const root = context.publicUrl.replace(/\/+$/, '');
  const path = `${root}/console/${page}`;
  return token === undefined ? path : `${path}?token=${requireToken(token, 'token')}`;
}
