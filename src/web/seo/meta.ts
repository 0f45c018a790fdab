import { PRODUCT_NAME } from '../../shared/site';

/** What a page says about itself to browsers, search engines and share cards. */
export interface PageMeta {
  /** The whole <title>; see pageTitle() for the usual 'Name · Jotline'. */
  title: string;
  description?: string;
  /** The page's canonical path ('/privacy'). With it come a canonical link and share-card tags. */
  path?: string;
  keywords?: readonly string[];
  /** 'noindex' keeps a page out of search results (sign-in, admin, 404). Defaults to 'index'. */
  robots?: 'index' | 'noindex';
}

/** Robots values, written as the app shell (index.html) writes its noindex. */
export const ROBOTS = { index: 'index, follow', noindex: 'noindex, nofollow' } as const;

/**
 * Marks the <meta> and <link> tags that arrive with the HTML (the app shell's robots rule, the build's
 * pre-rendered tags). <PageHead> removes them in the browser, where React renders the page's own.
 */
export const STATIC_HEAD_ATTRIBUTE = 'data-static-head';

/** The share image in public/, rendered at 1200×630. */
export const SHARE_IMAGE = {
  path: '/og-image.png',
  width: 1200,
  height: 630,
  alt: `${PRODUCT_NAME}: the easiest way to keep a journal, by text message`,
} as const;

/** 'Privacy Policy' → 'Privacy Policy · Jotline'. */
export function pageTitle(name: string): string {
  return `${name} · ${PRODUCT_NAME}`;
}
