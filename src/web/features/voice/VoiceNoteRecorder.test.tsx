import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildEntry, failure, installJournalApi, json, renderJournal, type JournalApi } from '../../test/journal';
import { EntryCard } from '../journal/EntryCard';
import { VOICE_NOTE_MAX_SECONDS, voiceCopy } from './voice-copy';

const toasts = () => within(screen.getByRole('region', { name: /Notifications/ }));
const recordedRecording = { id: 'rec-9', url: '/media/r/rec-9', mime_type: 'audio/webm', duration_seconds: 3, transcript: null, transcript_status: 'pending' };

/** The browser's MediaRecorder, faked at its API: what was "recorded" comes out on stop. */
class FakeMediaRecorder extends EventTarget {
  static instances: FakeMediaRecorder[] = [];
  static isTypeSupported = (type: string) => type === 'audio/webm;codecs=opus';
  state: RecordingState = 'inactive';
  readonly mimeType: string;
  constructor(
    readonly stream: MediaStream,
    options?: MediaRecorderOptions,
  ) {
    super();
    this.mimeType = options?.mimeType ?? '';
    FakeMediaRecorder.instances.push(this);
  }
  start() {
    this.state = 'recording';
  }
  stop() {
    this.state = 'inactive';
    const data = Object.assign(new Event('dataavailable'), { data: new Blob(['opus-bytes'], { type: this.mimeType }) });
    this.dispatchEvent(data);
    this.dispatchEvent(new Event('stop'));
  }
}

let api: JournalApi;
let track: { stop: ReturnType<typeof vi.fn> };
let getUserMedia: ReturnType<typeof vi.fn>;
beforeEach(() => {
  api = installJournalApi();
  FakeMediaRecorder.instances = [];
  vi.stubGlobal('MediaRecorder', FakeMediaRecorder);
  track = { stop: vi.fn() };
  getUserMedia = vi.fn(async () => ({ getTracks: () => [track] }));
  Object.defineProperty(navigator, 'mediaDevices', { value: { getUserMedia }, configurable: true });
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  Reflect.deleteProperty(navigator, 'mediaDevices');
});

async function openRecorder(user: ReturnType<typeof userEvent.setup>) {
  await user.click(screen.getByRole('button', { name: /Record voice note for entry from/ }));
  return screen.findByRole('region', { name: voiceCopy.recorderTitle });
}

describe('recording a voice note', () => {
  it('records from the microphone until Stop, then saves it to the entry', async () => {
    api.on('POST /api/entries/e1/recordings', json(201, { recording: recordedRecording }));
    renderJournal(<EntryCard entry={buildEntry({ id: 'e1' })} />);
    const user = userEvent.setup();
    const panel = await openRecorder(user);
    await user.click(within(panel).getByRole('button', { name: voiceCopy.startRecording }));

    const stop = await within(panel).findByRole('button', { name: voiceCopy.stopRecording });
    expect(stop).toHaveFocus();
    expect(getUserMedia).toHaveBeenCalledWith({ audio: true });
    expect(within(panel).getByRole('status')).toHaveTextContent(voiceCopy.recording);
    await user.click(stop);

    expect(await toasts().findByText(voiceCopy.saved)).toBeInTheDocument();
    const upload = api.to('POST /api/entries/e1/recordings')[0]!;
    const file = upload.form!.get('file') as File;
    expect(file.name).toBe('voice-note.webm');
    expect(file.type).toBe('audio/webm;codecs=opus');
    expect(track.stop).toHaveBeenCalled(); // the microphone is let go
    await waitFor(() => expect(screen.queryByRole('region', { name: voiceCopy.recorderTitle })).not.toBeInTheDocument());
  });

  it('says so when the microphone is not allowed', async () => {
    getUserMedia.mockRejectedValue(new DOMException('Permission denied', 'NotAllowedError'));
    renderJournal(<EntryCard entry={buildEntry({ id: 'e1' })} />);
    const user = userEvent.setup();
    const panel = await openRecorder(user);
    await user.click(within(panel).getByRole('button', { name: voiceCopy.startRecording }));

    expect(await within(panel).findByRole('alert')).toHaveTextContent(voiceCopy.microphoneDenied);
    expect(FakeMediaRecorder.instances).toHaveLength(0);
    expect(within(panel).getByRole('button', { name: voiceCopy.startRecording })).toBeEnabled();
  });

  it('stops by itself at five minutes and saves what it has', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'setInterval', 'Date'], shouldAdvanceTime: true });
    api.on('POST /api/entries/e1/recordings', json(201, { recording: recordedRecording }));
    renderJournal(<EntryCard entry={buildEntry({ id: 'e1' })} />);
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const panel = await openRecorder(user);
    await user.click(within(panel).getByRole('button', { name: voiceCopy.startRecording }));
    await within(panel).findByRole('button', { name: voiceCopy.stopRecording });

    act(() => vi.advanceTimersByTime(4 * 60_000 + 59_000));
    expect(within(panel).getByText('4:59 / 5:00')).toBeInTheDocument();
    expect(FakeMediaRecorder.instances[0]!.state).toBe('recording');
    act(() => vi.advanceTimersByTime(1_000));

    expect(await toasts().findByText(voiceCopy.saved)).toBeInTheDocument();
    expect(FakeMediaRecorder.instances[0]!.state).toBe('inactive');
    expect(api.to('POST /api/entries/e1/recordings')).toHaveLength(1);
    expect(VOICE_NOTE_MAX_SECONDS).toBe(300);
  });

  it('throws the recording away when cancelled', async () => {
    renderJournal(<EntryCard entry={buildEntry({ id: 'e1' })} />);
    const user = userEvent.setup();
    const panel = await openRecorder(user);
    await user.click(within(panel).getByRole('button', { name: voiceCopy.startRecording }));
    await within(panel).findByRole('button', { name: voiceCopy.stopRecording });
    await user.click(within(panel).getByRole('button', { name: voiceCopy.cancel }));

    await waitFor(() => expect(screen.queryByRole('region', { name: voiceCopy.recorderTitle })).not.toBeInTheDocument());
    expect(track.stop).toHaveBeenCalled();
    expect(api.to('POST /api/entries/e1/recordings')).toHaveLength(0);
    expect(screen.getByRole('button', { name: /Record voice note for entry from/ })).toHaveAttribute('aria-expanded', 'false');
  });
});

describe('uploading an audio file', () => {
  it("shows the server's reason when the upload is refused, and sends the same file again on Try again", async () => {
    api.on('POST /api/entries/e1/recordings', failure(400, 'That file is not audio Jotline can play.', 'INVALID_INPUT'), json(201, { recording: recordedRecording }));
    renderJournal(<EntryCard entry={buildEntry({ id: 'e1' })} />);
    const user = userEvent.setup();
    const panel = await openRecorder(user);
    await user.upload(within(panel).getByLabelText(voiceCopy.uploadFile), new File(['riff'], 'walk.m4a', { type: 'audio/mp4' }));

    const alert = await within(panel).findByRole('alert');
    expect(alert).toHaveTextContent('That file is not audio Jotline can play.');
    await user.click(within(alert).getByRole('button', { name: voiceCopy.tryAgain }));

    expect(await toasts().findByText(voiceCopy.saved)).toBeInTheDocument();
    const uploads = api.to('POST /api/entries/e1/recordings');
    expect(uploads).toHaveLength(2);
    expect((uploads[1]!.form!.get('file') as File).name).toBe('walk.m4a');
  });

  it('says the voice note was not saved when the network is down', async () => {
    api.on('POST /api/entries/e1/recordings', () => {
      throw new TypeError('Failed to fetch');
    });
    renderJournal(<EntryCard entry={buildEntry({ id: 'e1' })} />);
    const user = userEvent.setup();
    const panel = await openRecorder(user);
    await user.upload(within(panel).getByLabelText(voiceCopy.uploadFile), new File(['riff'], 'walk.m4a', { type: 'audio/mp4' }));

    expect(await within(panel).findByRole('alert')).toHaveTextContent(voiceCopy.uploadFailed);
    expect(within(panel).getByRole('button', { name: voiceCopy.tryAgain })).toBeInTheDocument();
  });
});
