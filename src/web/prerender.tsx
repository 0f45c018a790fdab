import { renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router';
import { LandingPage } from './pages/landing/LandingPage';
import { PrivacyPage } from './pages/privacy/PrivacyPage';

export interface PrerenderedPage {
  /** Path under dist/web. */
  file: string;
  /** Tags for <head>: title, description, canonical, share image, structured data. */
  head: string;
  html: string;
}

/** Renders the public pages at build time (see scripts/build.mjs). */
export async function prerender(): Promise<PrerenderedPage[]> {
  return [
    { file: 'prerendered/index.html', head: '<title>Jotline</title>', html: renderToString(<StaticRouter location="/"><LandingPage /></StaticRouter>) },
    { file: 'prerendered/privacy.html', head: '<title>Privacy Policy · Jotline</title>', html: renderToString(<StaticRouter location="/privacy"><PrivacyPage /></StaticRouter>) },
  ];
}
