const ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * Text as HTML that shows exactly that text, in an element or in a quoted attribute. Every string a
 * message's HTML holds goes through here once, in the layout, so a template cannot forget it and
 * nothing is escaped twice.
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ENTITIES[char] ?? char);
}
