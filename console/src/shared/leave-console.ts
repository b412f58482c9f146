/**
 * Leaving the console for another site (an identity provider's sign-in page): the page and its
 * in-memory session are gone, or, in a new tab, this one stays as it is. One place, so component
 * tests can stand in for the browser's navigation, which jsdom does not perform.
 */
export function leaveFor(url: string): void {
  window.location.assign(url);
}

/** Opens `url` in a new tab that cannot reach back into this page (noopener). */
export function openInNewTab(url: string): void {
  window.open(url, '_blank', 'noopener');
}
