import type { ReactElement } from 'react';
import { renderToStaticMarkup, renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router';
import { prerenderedFile } from '../shared/routes';
import { LandingPage } from './pages/landing/LandingPage';
import { PrivacyPage } from './pages/privacy/PrivacyPage';
import { StaticHeadTags } from './seo/HeadTags';
import { HeadCollectorContext, type HeadCollector } from './seo/PageHead';

export interface PrerenderedPage {
  /** Path under dist/web. */
  file: string;
  /** Tags for <head>: title, description, canonical, share image, robots. */
  head: string;
  /** The page itself, with its structured data (JSON-LD). */
  html: string;
}

const pages: Array<{ path: string; element: ReactElement }> = [
  { path: '/', element: <LandingPage /> },
  { path: '/privacy', element: <PrivacyPage /> },
];

/** Renders one page; its <PageHead> hands its metadata to the collector instead of rendering it in the body. */
export function prerenderPage(path: string, element: ReactElement): PrerenderedPage {
  const collector: HeadCollector = {};
  const html = renderToString(
    <HeadCollectorContext value={collector}>
      <StaticRouter location={path}>{element}</StaticRouter>
    </HeadCollectorContext>,
  );
  const file = prerenderedFile(path);
  if (!collector.meta) throw new Error(`The page at ${path} renders no <PageHead>.`);
  if (!file) throw new Error(`${path} is not in prerenderedRoutes (src/shared/routes.ts), so the server would not serve it.`);
  return { file, head: renderToStaticMarkup(<StaticHeadTags {...collector.meta} />), html };
}

/** Renders the public pages at build time (see scripts/build.mjs). */
export async function prerender(): Promise<PrerenderedPage[]> {
  return pages.map(({ path, element }) => prerenderPage(path, element));
}
