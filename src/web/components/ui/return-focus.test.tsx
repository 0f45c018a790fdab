import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { Modal } from '../../features/journal/Modal';

function Opener() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        New entry
      </button>
      <Modal open={open} onOpenChange={setOpen} title="New entry">
        {/* A field that takes focus as the dialog opens, as the entry form does. */}
        <textarea aria-label="Your entry" autoFocus />
      </Modal>
    </>
  );
}

describe('dialogs opened from state', () => {
  it('give focus back to what opened them when they close', async () => {
    const user = userEvent.setup();
    render(<Opener />);
    const opener = screen.getByRole('button', { name: 'New entry' });
    opener.focus();
    await user.keyboard('{Enter}');
    expect(await screen.findByRole('dialog', { name: 'New entry' })).toBeInTheDocument();
    expect(opener).not.toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(opener).toHaveFocus();
  });
});
