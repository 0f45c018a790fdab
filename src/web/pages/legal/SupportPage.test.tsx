import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { SupportPage } from './SupportPage';

describe('SupportPage', () => {
  it('lists every text command, not only the carrier keywords', () => {
    render(
      <MemoryRouter initialEntries={['/support']}>
        <SupportPage />
      </MemoryRouter>,
    );
    const commands = screen.getByRole('heading', { name: 'Text commands' }).parentElement!;
    const listed = [...commands.querySelectorAll('li strong')].map((item) => item.textContent);
    expect(listed).toEqual([
      'UNDO',
      'YESTERDAY: …',
      'LINK',
      'PAUSE or PAUSE 3',
      'RESUME',
      'REMIND 9pm, REMIND 21:30 or REMIND OFF',
      'COMMANDS',
      'HELP',
      'STOP',
      'START',
    ]);
    expect(commands).toHaveTextContent(/START turns texts back on after STOP/);
  });
});
