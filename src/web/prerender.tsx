import type { ReactElement } from 'react';
import { renderToStaticMarkup, renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router';
import { NOT_FOUND_PAGE_FILE, prerenderedFile } from '../shared/routes';
import { AuthContext, type AuthContextValue } from './features/auth/auth-context';
import { FullPageSpinner } from './features/auth/FullPageSpinner';
import { LandingPage } from './pages/landing/LandingPage';
import { SupportPage, TermsPage } from './pages/legal/LegalPages';
import { NotFoundPage } from './pages/not-found/NotFoundPage';
import { PrivacyPage } from './pages/privacy/PrivacyPage';
import { SignUpPage } from './pages/sign-up/SignUpPage';
import { StaticHeadTags } from './seo/HeadTags';
import { HeadCollectorContext, type HeadCollector } from './seo/PageHead';

interface PrerenderedPage {
  /** Path under dist/web. */
  file: string;
  /** Tags for <head>: title, description, canonical, share image, robots. */
  head: string;
  /** The page itself, with its structured data (JSON-LD). */
  html: string;
  /**
   * Whether the page loads the app. The public pages do not: they are complete as HTML (links are
   * plain links, the FAQ is native <details>), so they download no JavaScript at all.
   */
  runsApp: boolean;
}

/** Pre-rendered pages are what a visitor without a session sees; nothing here can sign anyone in. */
const notInTheBrowser = () => Promise.reject(new Error('Pre-rendered pages cannot sign in.'));
const signedOut: AuthContextValue = {
  status: 'signedOut',
  session: null,
  user: null,
  signedOutByUser: false,
  signIn: notInTheBrowser,
  signUp: notInTheBrowser,
  acceptSession: () => undefined,
  signOut: () => Promise.resolve(),
};

interface PageToRender {
  path: string;
  element: ReactElement;
  runsApp?: boolean;
  /** Where it goes, when not where its path says (the 404 page). */
  file?: string;
}

const pages: PageToRender[] = [
  { path: '/', element: <LandingPage /> },
  { path: '/privacy', element: <PrivacyPage /> },
  { path: '/terms', element: <TermsPage /> },
  { path: '/support', element: <SupportPage /> },
  {
    path: '/sign-up',
    runsApp: true,
    element: (
      <AuthContext value={signedOut}>
        <SignUpPage />
      </AuthContext>
    ),
  },
  { path: '/no-such-page', file: NOT_FOUND_PAGE_FILE, element: <NotFoundPage /> },
];

/** Renders one page; its <PageHead> hands its metadata to the collector instead of rendering it in the body. */
function prerenderPage(path: string, element: ReactElement, options: { runsApp?: boolean; file?: string } = {}): PrerenderedPage {
  const collector: HeadCollector = {};
  const html = renderToString(
    <HeadCollectorContext value={collector}>
      <StaticRouter location={path}>{element}</StaticRouter>
    </HeadCollectorContext>,
  );
  const file = options.file ?? prerenderedFile(path);
  if (!collector.meta) throw new Error(`The page at ${path} renders no <PageHead>.`);
  if (!file) throw new Error(`${path} is not in prerenderedRoutes (src/shared/routes.ts), so the server would not serve it.`);
  return { file, head: renderToStaticMarkup(<StaticHeadTags {...collector.meta} />), html, runsApp: options.runsApp ?? false };
}

/** Renders the public pages at build time (see scripts/build.mjs). */
export async function prerender(): Promise<PrerenderedPage[]> {
  return pages.map(({ path, element, ...options }) => prerenderPage(path, element, options));
}

/**
 * What the app shell (index.html, for every page that is not pre-rendered) shows until the app has
 * loaded: the same loading state a signed-in page shows while it restores the session, so the first
 * paint comes with the HTML instead of after the JavaScript, and the app replaces it without a jump.
 */
export function appShellPlaceholder(): string {
  return renderToStaticMarkup(<FullPageSpinner />);
}
