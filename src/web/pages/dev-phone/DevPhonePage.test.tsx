import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { messages } from '../../../shared/messages';
import { DevPhonePage, PHONE_STORAGE_KEY } from './DevPhonePage';
import type { DevPhoneText } from './use-conversation';

let thread: DevPhoneText[];
let posts: Array<{ from: string; body: string }>;
let fetchMock: ReturnType<typeof vi.fn>;
let calls: FormData[];

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

beforeEach(() => {
  thread = [];
  posts = [];
  calls = [];
  fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    if (url.startsWith('/api/dev/phone/messages')) {
      const phone = new URL(url, 'http://x').searchParams.get('phone');
      return json(200, { phone, journalNumber: '+15555550100', messages: thread });
    }
    if (url === '/api/dev/phone/send') {
      const body = JSON.parse(String(init?.body)) as { from: string; body: string };
      posts.push(body);
      thread = [...thread, { id: `m${posts.length}`, direction: 'sent', body: body.body, at: new Date().toISOString() }];
      return json(200, { messageSid: 'SM1' });
    }
    if (url === '/api/dev/phone/calls') {
      const form = init?.body as FormData;
      calls.push(form);
      return json(202, { call_sid: 'CA1', recorded: true, said: form.get('said'), heard: 'Jotline. Talk after the tone, then hang up. Saved.' });
    }
    return json(404, { error: { code: 'NOT_FOUND', message: 'Not found' } });
  });
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => vi.unstubAllGlobals());

function renderPage() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <DevPhonePage />
    </QueryClientProvider>,
  );
}

describe('the dev phone page', () => {
  it('says it exists only with the simulator and asks for a number first', () => {
    renderPage();
    expect(screen.getByText(/only while Jotline runs with the SMS simulator/)).toBeInTheDocument();
    expect(screen.getByText('Choose a number above to start texting.')).toBeInTheDocument();
  });

  it('refuses a number that is not a US number', async () => {
    const user = userEvent.setup({ delay: null });
    renderPage();
    await user.type(screen.getByLabelText("This phone's number (US)"), '12345');
    await user.click(screen.getByRole('button', { name: 'Use number' }));
    expect(screen.getByRole('alert')).toHaveTextContent(messages.signUp.invalidPhone);
  });

  it('remembers the number and shows the conversation as bubbles', async () => {
    localStorage.setItem(PHONE_STORAGE_KEY, '+12025550143');
    thread = [
      { id: 'a', direction: 'sent', body: 'hello?', at: '2026-11-22T10:00:00.000Z' },
      { id: 'b', direction: 'received', body: 'Jotline: Sign up at http://x/sign-up', at: '2026-11-22T10:00:01.000Z' },
    ];
    renderPage();
    const log = await screen.findByRole('log', { name: 'Conversation' });
    expect(within(log).getByText('hello?')).toBeInTheDocument();
    expect(within(log).getByText(/Sign up at/)).toBeInTheDocument();
    expect(screen.getByText('as (202) 555-0143')).toBeInTheDocument();
  });

  it('sends the typed text on Enter and shows it', async () => {
    const user = userEvent.setup({ delay: null });
    renderPage();
    await user.type(screen.getByLabelText("This phone's number (US)"), '202-555-0143');
    await user.click(screen.getByRole('button', { name: 'Use number' }));
    expect(localStorage.getItem(PHONE_STORAGE_KEY)).toBe('+12025550143');
    await screen.findByRole('log');

    await user.type(screen.getByLabelText('Message to the journal number'), 'Walked the dog{Enter}');
    await waitFor(() => expect(posts).toEqual([{ from: '+12025550143', body: 'Walked the dog' }]));
    expect(await within(screen.getByRole('log')).findByText('Walked the dog')).toBeInTheDocument();
    expect(screen.getByLabelText('Message to the journal number')).toHaveValue('');
  });

  it('keeps a text typed while the one before is still sending', async () => {
    localStorage.setItem(PHONE_STORAGE_KEY, '+12025550143');
    let release: () => void = () => {};
    const answered = fetchMock.getMockImplementation() as (url: string, init?: RequestInit) => Promise<Response>;
    fetchMock.mockImplementation(async (url: string, init?: RequestInit) => {
      if (url === '/api/dev/phone/send') await new Promise<void>((resolve) => (release = resolve));
      return answered(url, init);
    });
    const user = userEvent.setup({ delay: null });
    renderPage();
    await screen.findByRole('log');
    const box = screen.getByLabelText('Message to the journal number');

    await user.type(box, 'First text{Enter}');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Send text' })).toBeDisabled());
    await user.clear(box);
    await user.type(box, 'Second, typed meanwhile');
    release();
    expect(await within(screen.getByRole('log')).findByText('First text')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Send text' })).toBeEnabled());
    expect(box).toHaveValue('Second, typed meanwhile');
  });

  it('explains when the server has no dev phone', async () => {
    localStorage.setItem(PHONE_STORAGE_KEY, '+12025550143');
    fetchMock.mockImplementation(async () => json(404, { error: { code: 'NOT_FOUND', message: 'Not found' } }));
    renderPage();
    expect(await screen.findByText('The dev phone is off')).toBeInTheDocument();
  });

  it('calls the journal number with a picked file and what was said, and shows what the caller heard', async () => {
    localStorage.setItem(PHONE_STORAGE_KEY, '+12025550143');
    const user = userEvent.setup({ delay: null });
    renderPage();
    const call = screen.getByRole('form', { name: 'Call the journal number' });
    const file = new File([new Uint8Array([82, 73, 70, 70])], 'memo.wav', { type: 'audio/wav' });
    await user.upload(within(call).getByLabelText('Audio file'), file);
    expect(within(call).getByText('Audio: memo.wav')).toBeInTheDocument();
    await user.type(within(call).getByLabelText('What the caller says'), 'A walk by the river');
    await user.click(within(call).getByRole('button', { name: 'Call' }));
    expect(await within(call).findByRole('status')).toHaveTextContent('Heard: “Jotline. Talk after the tone, then hang up. Saved.” (recorded into the journal)');
    expect(calls).toHaveLength(1);
    expect(calls[0]!.get('from')).toBe('+12025550143');
    expect(calls[0]!.get('said')).toBe('A walk by the river');
    expect((calls[0]!.get('audio') as File).name).toBe('memo.wav');
  });
});
