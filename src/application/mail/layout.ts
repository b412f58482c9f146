import type { MailMessage } from '../ports/mailer';
import { escapeHtml } from './escape-html';
import { requireText, type MailAddressing } from './mail-input';

/** What a message says, in order; the layout writes it as text and as HTML. */
export type MailBlock =
  | { readonly kind: 'paragraph'; readonly text: string }
  | { readonly kind: 'button'; readonly label: string; readonly url: string };

export const paragraph = (text: string): MailBlock => ({ kind: 'paragraph', text });
/** A link people follow: a button in HTML (with the address written out beneath), a line in text. */
export const button = (label: string, url: string): MailBlock => ({ kind: 'button', label, url });

export interface MailContent {
  readonly subject: string;
  readonly heading: string;
  readonly blocks: readonly MailBlock[];
}

/** Control and invisible characters would let a name rewrite the Subject header; they become spaces. */
const HIDDEN = /[\p{Cc}\p{Cf}]+/gu;

const STYLE = {
  body: 'margin:0;padding:24px;background:#f4f4f5;font-family:Arial,Helvetica,sans-serif;color:#18181b;',
  card: 'max-width:560px;margin:0 auto;background:#ffffff;border-radius:8px;padding:24px;',
  tenant: 'margin:0 0 16px;font-size:13px;color:#52525b;',
  heading: 'margin:0 0 16px;font-size:20px;',
  paragraph: 'margin:0 0 16px;font-size:15px;line-height:1.5;',
  button: 'display:inline-block;background:#1d4ed8;color:#ffffff;padding:10px 16px;border-radius:6px;text-decoration:none;font-weight:bold;',
  address: 'margin:0 0 16px;font-size:13px;color:#52525b;word-break:break-all;',
  footer: 'margin:24px 0 0;padding-top:16px;border-top:1px solid #e4e4e7;font-size:12px;color:#71717a;',
};

/**
 * Every message's frame: the tenant's name above the heading, the blocks, and a footer naming the
 * recipient and the tenant. The text part is the same words, plain; the HTML part escapes every
 * string here and nowhere else, and uses inline styles only (mail clients drop style sheets and
 * block remote assets).
 */
export function layout(addressing: MailAddressing, content: MailContent): MailMessage {
  const to = requireText(addressing.to, 'to');
  const tenantName = requireText(addressing.tenantName, 'tenantName');
  const footer = `This message was sent to ${to} on behalf of ${tenantName}.`;
  return {
    to,
    subject: content.subject.replace(HIDDEN, ' '),
    text: textOf(tenantName, content, footer),
    html: htmlOf(tenantName, content, footer),
  };
}

function textOf(tenantName: string, content: MailContent, footer: string): string {
  const parts = [`${tenantName}\n\n${content.heading}`];
  for (const block of content.blocks) {
    parts.push(block.kind === 'paragraph' ? block.text : `${block.label}:\n${block.url}`);
  }
  parts.push(`--\n${footer}`);
  return `${parts.join('\n\n')}\n`;
}

function htmlOf(tenantName: string, content: MailContent, footer: string): string {
  const blocks = content.blocks.map((block) => (block.kind === 'paragraph'
    ? `<p style="${STYLE.paragraph}">${escapeHtml(block.text)}</p>`
    : `<p style="${STYLE.paragraph}"><a href="${escapeHtml(block.url)}" style="${STYLE.button}">${escapeHtml(block.label)}</a></p>\n`
      + `<p style="${STYLE.address}">If the button does not work, open this address: ${escapeHtml(block.url)}</p>`));
  return [
    '<!DOCTYPE html>',
    '<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(content.subject)}</title></head>`,
    `<body style="${STYLE.body}"><div style="${STYLE.card}">`,
    `<p style="${STYLE.tenant}">${escapeHtml(tenantName)}</p>`,
    `<h1 style="${STYLE.heading}">${escapeHtml(content.heading)}</h1>`,
    ...blocks,
    `<p style="${STYLE.footer}">${escapeHtml(footer)}</p>`,
    '</div></body></html>',
    '',
  ].join('\n');
}
