import Bowser from 'bowser';

const MAX_USER_AGENT = 512;

/** "Chrome on macOS" from a user agent; null when there is none or it names nothing we know. */
export function deviceLabel(userAgent: string | undefined | null): string | null {
  if (!userAgent) return null;
  const parsed = Bowser.parse(userAgent.slice(0, MAX_USER_AGENT));
  const browser = parsed.browser.name || null;
  const os = parsed.os.name || null;
  if (browser && os) return `${browser} on ${os}`;
  return browser ?? os;
}
