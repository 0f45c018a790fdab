import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { journalCopy } from './copy';
import { EntryCard } from './EntryCard';
import { searchMarkRanges } from './search-marks';
import { buildEntry, installJournalApi, renderJournal } from '../../test/journal';

beforeEach(() => {
  installJournalApi();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

const dayOne = ['Packed for **Brisbane**, _finally_.', '', '- [ ] passport', '- [x] sunscreen', '', '1. flight', '2. hotel', '', 'Run `npm test` first.'].join('\n');

describe("an entry's Markdown", () => {
  it('renders bold, emphasis, task boxes, lists and code instead of showing the marks', async () => {
    renderJournal(<EntryCard entry={buildEntry({ content: dayOne })} />);
    const card = screen.getByRole('article');
    expect(await within(card).findByText('Brisbane', { selector: 'strong' })).toBeInTheDocument();
    await userEvent.click(within(card).getByRole('button', { name: journalCopy.showMore }));
    expect(within(card).getByText('finally', { selector: 'em' })).toBeInTheDocument();
    expect(within(card).getByText('npm test', { selector: 'code' })).toBeInTheDocument();
    const boxes = within(card).getAllByRole('checkbox');
    expect(boxes.map((box) => (box as HTMLInputElement).checked)).toEqual([false, true]);
    for (const box of boxes) expect(box).toBeDisabled();
    expect(within(card).getAllByRole('list')).toHaveLength(2);
    expect(card).not.toHaveTextContent('**');
    expect(card).not.toHaveTextContent('- [ ]');
  });

  it('shows HTML typed into an entry as the characters typed, and runs nothing', async () => {
    const content = '**Note** <img src=x onerror="window.__md = 1"> <script>window.__md = 2</script> [link](javascript:alert(1))';
    renderJournal(<EntryCard entry={buildEntry({ content })} />);
    const card = screen.getByRole('article');
    await within(card).findByText('Note', { selector: 'strong' });
    expect(card).toHaveTextContent('<img src=x onerror="window.__md = 1">');
    expect(card.querySelector('img, script, [onerror]')).toBeNull();
    expect(card.querySelector('a[href^="javascript"]')).toBeNull();
    expect((window as unknown as { __md?: number }).__md).toBeUndefined();
  });

  it('opens links in a new tab without telling the site who sent the reader', async () => {
    renderJournal(<EntryCard entry={buildEntry({ content: 'Read **[the guide](https://example.com/guide)** today' })} />);
    const link = await screen.findByRole('link', { name: 'the guide' });
    expect(link).toHaveAttribute('href', 'https://example.com/guide');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer nofollow');
  });

  it('leaves a plain text plain', () => {
    renderJournal(<EntryCard entry={buildEntry({ content: 'Walked 3*4 blocks. Home by 5.' })} />);
    expect(screen.getByText('Walked 3*4 blocks. Home by 5.', { selector: 'p' })).toBeInTheDocument();
  });
});

describe('a search hit in an entry', () => {
  it('opens a long entry whose hit is in the part Show more hides, and marks the word', () => {
    const content = `${'We drove along the coast for hours. '.repeat(8)}Then the Pelican flew by.`;
    renderJournal(<EntryCard entry={buildEntry({ content })} terms={['pelican']} />);
    const card = screen.getByRole('article');
    expect(within(card).getByRole('button', { name: journalCopy.showLess })).toHaveAttribute('aria-expanded', 'true');
    const marks = card.querySelectorAll('mark');
    expect([...marks].map((mark) => mark.textContent)).toEqual(['Pelican']);
  });

  it('stays collapsed when the hit is in the part shown, and can still be opened and closed', async () => {
    const content = `Pelican first. ${'We drove along the coast for hours. '.repeat(8)}`;
    renderJournal(<EntryCard entry={buildEntry({ content })} terms={['pelican']} />);
    const more = screen.getByRole('button', { name: journalCopy.showMore });
    expect(screen.getByRole('article').querySelector('mark')).toHaveTextContent('Pelican');
    await userEvent.click(more);
    expect(screen.getByRole('button', { name: journalCopy.showLess })).toBeInTheDocument();
  });

  it('marks hits inside rendered Markdown too', async () => {
    renderJournal(<EntryCard entry={buildEntry({ content: 'A **great** day at the café' })} terms={['cafe']} />);
    const card = screen.getByRole('article');
    await within(card).findByText('great', { selector: 'strong' });
    expect(card.querySelector('mark')).toHaveTextContent('café');
  });

  it('finds the terms as search does: case, accents and runs of spaces folded', () => {
    expect(searchMarkRanges('Café  au LAIT', ['cafe au lait'])).toEqual([[0, 13]]);
    expect(searchMarkRanges('Crème brûlée, crème', ['creme'])).toEqual([
      [0, 5],
      [14, 19],
    ]);
    expect(searchMarkRanges('nothing here', ['pelican'])).toEqual([]);
  });
});
