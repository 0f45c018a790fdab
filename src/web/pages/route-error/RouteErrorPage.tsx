import { RefreshCw, TriangleAlert } from 'lucide-react';
import { useEffect } from 'react';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { messages } from '../../../shared/messages';
import { ctaClasses } from '../../components/marketing/cta';
import { pageTitle } from '../../seo/meta';
import { PageHead } from '../../seo/PageHead';
import { checkForNewVersion, useNewVersionAvailable } from '../../app-shell/new-version';

/** What went wrong, in one line: '404 Not Found' for a route response, else the error's message. */
function describeRouteError(error: unknown): string {
  if (isRouteErrorResponse(error)) return `${error.status} ${error.statusText}`.trim();
  if (error instanceof Error) return error.message;
  return typeof error === 'string' ? error : 'Unknown error';
}

/**
 * The router's error screen, shown when a page throws while loading or rendering. A page whose code
 * a new build replaced asks for a reload instead.
 */
export function RouteErrorPage() {
  const error = useRouteError();
  const newVersion = useNewVersionAvailable();
  useEffect(() => {
    if (!isRouteErrorResponse(error)) void checkForNewVersion();
  }, [error]);
  if (newVersion) {
    return (
      <main className="flex min-h-dvh items-center justify-center bg-paper px-5 py-16 text-ink">
        <PageHead title={pageTitle('New version')} robots="noindex" />
        <div role="alert" className="w-full max-w-lg rounded-3xl border border-stone-200 bg-white p-8 text-center shadow-sm sm:p-10">
          <span className="mx-auto flex size-12 items-center justify-center rounded-full bg-brand-50 text-brand-700">
            <RefreshCw aria-hidden="true" className="size-6" />
          </span>
          <h1 className="mt-5 font-serif text-2xl font-semibold">
            {messages.newVersion.available} —{' '}
            <button type="button" onClick={() => window.location.reload()} className="text-brand-700 underline underline-offset-4">
              {messages.newVersion.reload}
            </button>
          </h1>
        </div>
      </main>
    );
  }
  return (
    <main className="flex min-h-dvh items-center justify-center bg-paper px-5 py-16 text-ink">
      <PageHead title={pageTitle('Error')} robots="noindex" />
      <div role="alert" className="w-full max-w-lg rounded-3xl border border-stone-200 bg-white p-8 text-center shadow-sm sm:p-10">
        <span className="mx-auto flex size-12 items-center justify-center rounded-full bg-amber-100 text-amber-800">
          <TriangleAlert aria-hidden="true" className="size-6" />
        </span>
        <h1 className="mt-5 font-serif text-3xl font-semibold">{messages.routeError.heading}</h1>
        <p className="mt-3 rounded-lg bg-stone-100 px-4 py-3 font-mono text-sm break-words text-stone-700">{describeRouteError(error)}</p>
        {/* A full page load, so the app starts afresh after the error. */}
        <a href="/" className={ctaClasses('primary', 'lg', 'mt-8')}>
          {messages.notFound.home}
        </a>
      </div>
    </main>
  );
}
