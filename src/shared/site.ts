/** Facts about the product that the public pages, metadata and messages share. */
export const PRODUCT_NAME = 'Jotline';
export const TAGLINE = 'The easiest way to keep a journal';

/** The public address of the site: canonical links, sitemap and share cards are built on it. */
export const SITE_ORIGIN = 'https://jotline.app';

export const SUPPORT_EMAIL = 'support@jotline.app';

/** The published journal number when the build does not name one (DESIGN section 4: JOURNAL_NUMBER). */
export const DEFAULT_JOURNAL_NUMBER = '+15555550100';

/** The absolute address of a path on the public site: '/privacy' → 'https://jotline.app/privacy'. */
export function siteUrl(path: string): string {
  return new URL(path, SITE_ORIGIN).href;
}

/** '+15555550100' → '(555) 555-0100'; anything that is not a US E.164 number is returned as is. */
export function formatUsPhone(e164: string): string {
  const match = /^\+1(\d{3})(\d{3})(\d{4})$/.exec(e164);
  return match ? `(${match[1]}) ${match[2]}-${match[3]}` : e164;
}
