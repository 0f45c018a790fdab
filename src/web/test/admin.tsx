import { fakeSession, reply, type FakeApi } from './fake-api';
import { sessionStore } from '../api/session-store';
import { RequireAdmin } from '../features/admin/RequireAdmin';
import type { ReactNode } from 'react';

/** Test-only helpers for the admin pages. */
export const ADMIN_EMAIL = 'boss@example.com';

export function signInAsAdmin(api: FakeApi) {
  sessionStore.set(fakeSession({ email: ADMIN_EMAIL }));
  api.on('GET /api/admin/me', reply(200, { success: true, user: { id: 'user-1', email: ADMIN_EMAIL } }));
}

export const guarded = (path: string, element: ReactNode) => ({ path, element: <RequireAdmin>{element}</RequireAdmin> });

export const login = { path: '/admin/login', element: <p>admin login page</p> };
