import { config } from '../config.server';
import { isDomainError } from '../http/errors';
import type { ModalState } from '../http/modal-state';
import { commitSession, getSession, setDisplayFields } from './session.server';
import { resolveCaller } from './tokens.server';

// What every page's chrome needs: who is signed in (for the header), the flashed modal, and
// public configuration. It never redirects; the page's own guard does that.

export type HeaderUser = {
  guest: boolean;
  fullName: string | null;
  initials: string | null;
  profilePicture: string | null;
  hasAccess: boolean;
  isSuperuser: boolean;
};

export async function loadRootData(request: Request) {
  const session = await getSession(request);
  let changed = false;
  const modal: ModalState | null = session.get('modal') ?? null;
  const denied = session.get('denied') ?? null;
  const notice = session.get('notice') ?? null;
  if (modal || denied || notice) changed = true;

  let header: HeaderUser = { guest: true, fullName: null, initials: null, profilePicture: null, hasAccess: false, isSuperuser: false };
  const token = session.get('accessToken');
  if (token) {
    try {
      const caller = await resolveCaller(`${session.get('tokenType') ?? 'bearer'} ${token}`);
      if (caller.kind === 'user') {
        const u = caller.user;
        if (session.get('fullName') !== u.full_name || (session.get('profilePicture') ?? null) !== u.profile_picture) {
          setDisplayFields(session, u);
          changed = true;
        }
        header = {
          guest: false,
          fullName: u.full_name,
          initials: session.get('initials') ?? null,
          profilePicture: u.profile_picture,
          hasAccess: u.has_access,
          isSuperuser: u.is_superuser,
        };
      }
    } catch (e) {
      if (!isDomainError(e)) throw e;
      // An invalid token: the page's guard signs the visitor out.
    }
  }
  const c = config();
  return {
    body: {
      header,
      modal,
      denied,
      notice,
      guestMode: c.guestMode,
      tagManager: c.gtmId ? { id: c.gtmId, enableRouterSync: true } : null,
    },
    setCookie: changed ? await commitSession(session) : null,
  };
}
