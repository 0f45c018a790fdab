/**
 * A whole number as en-US writes it: 12345 → '12,345'. Without `toLocaleString`, whose first call
 * loads ICU's number data on the journal's first screen.
 */
export function formatCount(n: number): string {
  if (!Number.isSafeInteger(n)) return String(n);
  const digits = String(Math.abs(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return n < 0 ? `-${digits}` : digits;
}
