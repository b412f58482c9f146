import { useState } from 'react';
import { ApiError, call } from '../../api/client';
import { Link } from '../../app/link';
import { useLocation } from '../../app/router';
import { type Session, useSession } from '../../app/session';
import { isAdmin } from '../../shared/roles';
import { describeError, fieldErrors, useAction } from '../../shared/feedback';
import { Field, Form } from '../../shared/field';
import { PasswordStrengthHint } from '../../shared/password-strength-hint';
import { Screen } from '../../shared/screen';
import { emailProblem, type FieldMessages, inviteTokenProblem, passwordProblem, problems } from '../../shared/sign-up-rules';

/**
 * The API's 409 at an invitation's signup, in words: an address has one account, in one organisation,
 * so an invitation sent to an address that already has one cannot be accepted with it.
 */
export function joinRefusal(error: unknown): string {
  if (error instanceof ApiError && error.status === 409) {
    return 'This e-mail address already has an account (Email already registered). An address can belong to one '
      + 'organisation only, so this invitation cannot be accepted with it. Log in with that address instead, or ask '
      + 'whoever invited you to invite an address that has no account yet.';
  }
  return describeError(error);
}

/** Once joined: the organisation and role the invitation gave, which the link itself does not say. */
function Joined({ joined }: { joined: Session }) {
  const next = isAdmin(joined.me.role) ? { to: '/members', label: 'Go to Members' } : { to: '/account', label: 'Go to your account' };
  return (
    <Screen title="Join">
      <section className="secret" aria-labelledby="joined-heading">
        <h2 id="joined-heading">You have joined {joined.account?.tenant_name ?? 'the organisation'}</h2>
        <dl className="facts">
          <dt>Organisation</dt><dd>{joined.account?.tenant_name ?? joined.me.tenant_id}</dd>
          <dt>Your role</dt><dd>{joined.me.role}</dd>
          <dt>E-mail</dt><dd>{joined.email ?? 'unknown'}</dd>
        </dl>
        <p><Link to={next.to}>{next.label}</Link></p>
      </section>
    </Screen>
  );
}

/** Accepting an invitation: the link's token is filled in, the person chooses how to log in. */
export function JoinPage() {
  const { signIn } = useSession();
  const { query } = useLocation();
  const [token, setToken] = useState(() => query.get('token') ?? '');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [invalid, setInvalid] = useState<FieldMessages>({});
  const [joined, setJoined] = useState<Session | null>(null);
  const join = useAction(async () => {
    const result = await call('post', '/api/v1/auth/signup', null, { body: { invite_token: token.trim(), email, password } });
    setJoined(await signIn(result.token, { stay: true }));
  });
  const submit = () => {
    const found = problems({ invite_token: inviteTokenProblem(token), email: emailProblem(email), password: passwordProblem(password) });
    setInvalid(found);
    if (Object.keys(found).length > 0) {
      join.setError(null);
      return;
    }
    void join.run();
  };
  if (joined) return <Joined joined={joined} />;
  const refused = fieldErrors(join.error);
  const messageFor = (field: keyof FieldMessages) => invalid[field] ?? refused[field];
  const hasFieldMessages = Object.keys(invalid).length > 0 || Object.keys(refused).length > 0;
  return (
    <Screen title="Join">
      <p>
        Join the organisation that invited you: the invitation's token comes from your link. The link holds only that
        token, so the organisation's name and your role are shown once you have joined.
      </p>
      <Form label="Join" onSubmit={submit}>
        <Field label="Invitation token" autoComplete="off" spellCheck={false} value={token} error={messageFor('invite_token')}
          onChange={(e) => setToken(e.target.value)} />
        <Field label="E-mail" type="email" autoComplete="username" value={email} error={messageFor('email')}
          onChange={(e) => setEmail(e.target.value)} />
        <Field label="Password" type="password" autoComplete="new-password" hint="At least 8 characters." value={password}
          error={messageFor('password')} onChange={(e) => setPassword(e.target.value)} />
        <PasswordStrengthHint password={password} context={{ email }} />
        <button type="submit" disabled={join.pending}>Join</button>
        {hasFieldMessages
          ? <p role="alert" className="error">Check the fields marked above.</p>
          : join.error !== null && <p role="alert" className="error">{joinRefusal(join.error)}</p>}
      </Form>
    </Screen>
  );
}
