/**
 * The last line of defence before a log line leaves the process: whatever a serializer or a
 * careless message let through, these patterns take out. Replacements never contain quotes or
 * backslashes, so a JSON line stays valid JSON.
 */
const SCRUBBERS: Array<[RegExp, string]> = [
  // Signed tokens (JWTs: access tokens, links).
  [/eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g, '[token]'],
  // A query string after a path, whole: it may carry ?access_token=, ?ticket=, ?sig=…
  [/(\/[^\s"?#]*)\?[^\s"#]*/g, '$1'],
  // Secret-looking parameters anywhere else.
  [/\b(access_token|refresh_token|id_token|ticket|token|token_hash|sig|signature|password|code)=[^&\s"]*/gi, '$1=[redacted]'],
  // E-mail addresses, plain or URL-encoded.
  [/[A-Za-z0-9._%+-]+(?:@|%40)[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+/g, '[email]'],
  // Phone numbers: E.164 (plain or with an encoded +) and North American formats.
  [/(?:\+|%2B)\d{8,15}\b/gi, '[phone]'],
  [/(?<![\w.])\(?\d{3}\)?[ .-]\d{3}[ .-]\d{4}\b/g, '[phone]'],
];

export function scrubLogLine(line: string): string {
  let scrubbed = line;
  for (const [pattern, replacement] of SCRUBBERS) scrubbed = scrubbed.replace(pattern, replacement);
  return scrubbed;
}
