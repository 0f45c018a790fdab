import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { Modal as EagerModal } from '../../features/journal/Modal';
import { lazyDialog, preloadOnFirstInteraction } from './lazy-dialog';

type ModalProps = Parameters<typeof EagerModal>[0];

/** A lazily loaded Modal whose download the test controls: each call to load() waits for release(). */
function controlledModal() {
  const downloads: Array<{ resolve: () => void; reject: (error: Error) => void }> = [];
  const load = vi.fn(
    () =>
      new Promise<typeof EagerModal>((resolve, reject) => {
        downloads.push({ resolve: () => resolve(EagerModal), reject });
      }),
  );
  const onLoadError = vi.fn();
  const Modal = lazyDialog(load, { isOpen: (p: ModalProps) => p.open, close: (p) => p.onOpenChange(false), onLoadError });
  return { Modal, load, onLoadError, downloads };
}

function Page({ Modal }: { Modal: ReturnType<typeof controlledModal>['Modal'] }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Export
      </button>
      <Modal open={open} onOpenChange={setOpen} title="Export your journal">
        <textarea aria-label="Note" autoFocus />
      </Modal>
    </>
  );
}

describe('a dialog loaded when it first opens', () => {
  it('downloads nothing and renders nothing until it opens', () => {
    const { Modal, load } = controlledModal();
    render(<Page Modal={Modal} />);
    expect(load).not.toHaveBeenCalled();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('opens once its code is in, takes focus, and gives it back when closed; it opens again without a download', async () => {
    const user = userEvent.setup();
    const { Modal, load, downloads } = controlledModal();
    render(<Page Modal={Modal} />);
    const opener = screen.getByRole('button', { name: 'Export' });
    opener.focus();
    await user.keyboard('{Enter}');
    expect(load).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    downloads[0]!.resolve();
    expect(await screen.findByRole('dialog', { name: 'Export your journal' })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'Note' })).toHaveFocus());
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(opener).toHaveFocus();

    await user.keyboard('{Enter}');
    expect(screen.getByRole('dialog', { name: 'Export your journal' })).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('opens at once when preloaded', async () => {
    const user = userEvent.setup();
    const { Modal, load, downloads } = controlledModal();
    render(<Page Modal={Modal} />);
    const preloaded = Modal.preload();
    downloads[0]!.resolve();
    await preloaded;
    await user.click(screen.getByRole('button', { name: 'Export' }));
    expect(screen.getByRole('dialog', { name: 'Export your journal' })).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('says so and closes when its code cannot be downloaded, and tries again on the next open', async () => {
    const user = userEvent.setup();
    const { Modal, load, onLoadError, downloads } = controlledModal();
    render(<Page Modal={Modal} />);
    await user.click(screen.getByRole('button', { name: 'Export' }));
    const offline = new TypeError('Failed to fetch dynamically imported module');
    downloads[0]!.reject(offline);
    await waitFor(() => expect(onLoadError).toHaveBeenCalledWith(offline));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Export' }));
    expect(load).toHaveBeenCalledTimes(2);
    downloads[1]!.resolve();
    expect(await screen.findByRole('dialog', { name: 'Export your journal' })).toBeInTheDocument();
  });
});

describe('dialogs fetched when the reader starts using the page', () => {
  it('fetches nothing while the page only loads, everything once on the first key or pointer, and nothing after clean-up', async () => {
    const first = { preload: vi.fn(() => Promise.resolve()) };
    const second = { preload: vi.fn(() => Promise.reject(new Error('offline'))) };
    const stop = preloadOnFirstInteraction([first, second]);
    expect(first.preload).not.toHaveBeenCalled();
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'n' }));
    window.dispatchEvent(new Event('pointerdown'));
    expect(first.preload).toHaveBeenCalledTimes(1);
    expect(second.preload).toHaveBeenCalledTimes(1);
    stop();

    const later = { preload: vi.fn(() => Promise.resolve()) };
    preloadOnFirstInteraction([later])();
    window.dispatchEvent(new Event('scroll'));
    expect(later.preload).not.toHaveBeenCalled();
  });
});
