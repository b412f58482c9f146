import { useEffect } from 'react';
import { VerificationBanner } from '../features/email-address/verification-banner';
import { isAdmin } from '../shared/roles';
import { Screen } from '../shared/screen';
import { NavBar } from './nav-bar';
import { navigate, useLocation } from './router';
import { ENROLMENT_SCREENS, SCREENS } from './screens';
import { useSession } from './session';

function Redirect({ to }: { to: string }) {
  useEffect(() => navigate(to, { replace: true }), [to]);
  return null;
}

function Content() {
  const { path } = useLocation();
  const { session } = useSession();
  if (path === '/') return <Redirect to={!session ? '/login' : isAdmin(session.me.role) ? '/members' : '/account'} />;
  const screen = SCREENS.find((entry) => entry.path === path);
  if (!screen) {
    return (
      <Screen title="Page not found">
        <p>The console has no page at this address.</p>
      </Screen>
    );
  }
  if (screen.access !== 'public' && !session) return <Redirect to="/login" />;
  // Until a second factor is set up, the API opens only the account and the enrolment routes.
  if (session?.enrollmentOnly && screen.access !== 'public' && !ENROLMENT_SCREENS.includes(screen.path)) return <Redirect to="/security" />;
  if (screen.access === 'owner' && session && session.me.role !== 'owner') {
    return (
      <Screen title={screen.label}>
        <p role="alert" className="error">Requires owner role or higher</p>
        <p>Your role is {session.me.role}. An owner of your organisation decides this.</p>
      </Screen>
    );
  }
  if (screen.access === 'admin' && session && !isAdmin(session.me.role)) {
    return (
      <Screen title={screen.label}>
        <p role="alert" className="error">Requires admin role or higher</p>
        <p>Your role is {session.me.role}. An admin or owner of your organisation can change it.</p>
      </Screen>
    );
  }
  const Component = screen.component;
  return <Component />;
}

/** Which organisation the console is acting in, so nobody manages one while thinking of another. */
function Organisation() {
  const { session } = useSession();
  if (!session?.account) return null;
  return <span className="organisation"><span className="visually-hidden">Organisation: </span>{session.account.tenant_name}</span>;
}

export function App() {
  return (
    <>
      <header className="top">
        <span className="brand">Portcullis console</span>
        <Organisation />
        <NavBar />
      </header>
      {/* Outside main: it concerns the account, not the screen, which keeps only its own controls. */}
      <VerificationBanner />
      <main>
        <Content />
      </main>
    </>
  );
}
