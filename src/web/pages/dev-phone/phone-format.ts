/** +12025550143 → (202) 555-0143; anything else is shown as given. */
export function formatUsPhone(e164: string): string {
  const m = /^\+1(\d{3})(\d{3})(\d{4})$/.exec(e164);
  return m ? `(${m[1]}) ${m[2]}-${m[3]}` : e164;
}

/** A random, well-formed US number in the 555 exchange (never a real subscriber). */
export function randomUsPhone(): string {
  const area = 201 + Math.floor(Math.random() * 788);
  const line = String(Math.floor(Math.random() * 10_000)).padStart(4, '0');
  return `+1${area}555${line}`;
}
