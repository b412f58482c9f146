import { isAdmin } from '../shared/roles';
import { Link } from './link';
import { useLocation } from './router';
import { ENROLMENT_SCREENS, SCREENS } from './screens';
import { useSession } from './session';

/** Only the screens this person may use: the API stays the authority, but the page shows no dead ends. */
export function NavBar() {
  const { session, endSession } = useSession();
  const { path } = useLocation();
  const visible = SCREENS.filter((screen) => {
    if (screen.linkedOnly) return false;
    if (!session) return screen.access === 'public';
    if (session.enrollmentOnly) return ENROLMENT_SCREENS.includes(screen.path);
    const access = screen.navAccess ?? screen.access;
    if (access === 'admin') return isAdmin(session.me.role);
    if (access === 'owner') return session.me.role === 'owner';
    return access === 'signed-in';
  });
  return (
    <nav aria-label="Main">
      <ul>
        {visible.map((screen) => (
          <li key={screen.path}><Link to={screen.path} current={screen.path === path}>{screen.label}</Link></li>
        ))}
      </ul>
      {session && (
        <div className="whoami">
          <span>{session.email ?? session.me.user_id} · {session.me.role}</span>
          <button type="button" className="on-accent" onClick={() => void endSession()}>Sign out</button>
        </div>
      )}
    </nav>
  );
}
