/** The value of cookie `name` in a request's Cookie header; undefined when it has none. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const pair of (header ?? '').split(';')) {
    const at = pair.indexOf('=');
    if (at > 0 && pair.slice(0, at).trim() === name) return pair.slice(at + 1).trim();
  }
  return undefined;
}

/** A Set-Cookie header for a cookie only the server reads: HttpOnly, SameSite=Strict, Secure over HTTPS. */
export function privateCookie(name: string, value: string, options: { path: string; maxAgeSeconds: number; publicUrl: string }): string {
  const secure = options.publicUrl.startsWith('https:') ? '; Secure' : '';
  return `${name}=${value}; Path=${options.path}; Max-Age=${options.maxAgeSeconds}; HttpOnly; SameSite=Strict${secure}`;
}
