/** XML's five special characters as entities: everything put into TwiML goes through here. */
export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);
}

const HEAD = '<?xml version="1.0" encoding="UTF-8"?>';

/** Says one sentence and hangs up. */
export function sayAndHangUp(sentence: string): string {
  return `${HEAD}<Response><Say>${escapeXml(sentence)}</Say><Hangup/></Response>`;
}

/**
 * The greeting, then a recording of at most `maxSeconds`: Twilio reports it to `statusCallback`
 * once complete and, when the caller stops talking or presses a key, asks `action` what to say next.
 */
export function greetAndRecord(options: { greeting: string; maxSeconds: number; statusCallback: string; action: string }): string {
  const attributes = {
    maxLength: String(options.maxSeconds),
    playBeep: 'true',
    trim: 'trim-silence',
    timeout: '5',
    recordingStatusCallback: options.statusCallback,
    recordingStatusCallbackEvent: 'completed',
    action: options.action,
  };
  const record = Object.entries(attributes)
    .map(([name, value]) => `${name}="${escapeXml(value)}"`)
    .join(' ');
  return `${HEAD}<Response><Say>${escapeXml(options.greeting)}</Say><Record ${record}/></Response>`;
}

/** The sentence of a TwiML answer: what the caller hears. */
export function spokenIn(twiml: string): string {
  const said = /<Say>([^<]*)<\/Say>/.exec(twiml)?.[1] ?? '';
  return said.replace(/&(amp|lt|gt|quot|apos);/g, (_, name: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" })[name]!);
}
