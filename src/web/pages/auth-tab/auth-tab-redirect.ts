import { redirect, type LoaderFunctionArgs } from 'react-router';
import { authTabTarget } from '../../../shared/auth-tab';

/** /auth?tab=signin|signup (old links) → /sign-in or /sign-up, before anything renders. */
export function authTabRedirect({ request }: LoaderFunctionArgs): Response {
  return redirect(authTabTarget(new URL(request.url).searchParams.get('tab')));
}
