import { useState } from 'react';
import type { Schemas } from '../../api/client';
import { useSession } from '../../app/session';
import { ErrorMessage, StatusMessage, useAction } from '../../shared/feedback';

/**
 * True only when the account says, in so many words, that the address is not verified: a service
 * that does not report it (no `email_verified`, as before addresses were verified) shows no banner.
 */
export function emailUnverified(account: Schemas['Account'] | null): boolean {
  return account?.email_verified === false;
}

/** On every signed-in screen while the person's address is unproved, with a way to get a new link. */
export function VerificationBanner() {
  const { session, api } = useSession();
  const [status, setStatus] = useState<string | null>(null);
  const resend = useAction(async () => {
    setStatus(null);
    await api('post', '/api/v1/auth/email/verify/resend');
    setStatus('Sent. Open the link in the message to verify your address.');
  });
  if (!session || !emailUnverified(session.account)) return null;
  return (
    <section className="banner" aria-label="E-mail verification">
      <p>Your e-mail address{session.email ? ` (${session.email})` : ''} is not verified yet: open the link we sent to it.</p>
      <button type="button" onClick={() => void resend.run()} disabled={resend.pending}>Resend the link</button>
      <StatusMessage>{status}</StatusMessage>
      <ErrorMessage error={resend.error} />
    </section>
  );
}
