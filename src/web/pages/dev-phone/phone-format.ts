/** +12025550143 → (202) 555-0143; anything else is shown as given. */
export function formatUsPhone(e164: string): string {
  const m = /^\+1(\d{3})(\d{3})(\d{4})$/.exec(e164);
  return m ? `(${m[1]}) ${m[2]}-${m[3]}` : e164;
}

// US area codes: sign-up texts only US numbers (shared/phone-us.ts), so the simulated phone can sign up.
const US_AREA_CODES = ['201', '202', '212', '303', '312', '415', '512', '617', '646', '702', '917'];

/** A random US number in the 555 exchange, outside the 555-01xx lines sign-up refuses as fiction. */
export function randomUsPhone(): string {
  const area = US_AREA_CODES[Math.floor(Math.random() * US_AREA_CODES.length)];
  const line = String(200 + Math.floor(Math.random() * 9_800)).padStart(4, '0');
  return `+1${area}555${line}`;
}
