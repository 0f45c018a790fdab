import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { messages } from '../../../shared/messages';
import { PrivacyPage } from './PrivacyPage';

function renderPrivacy() {
  return render(
    <MemoryRouter initialEntries={['/privacy']}>
      <PrivacyPage />
    </MemoryRouter>,
  );
}

describe('PrivacyPage', () => {
  it('states the effective date and the carrier-required promises', () => {
    renderPrivacy();
    expect(screen.getByRole('heading', { level: 1, name: 'Privacy Policy' })).toBeInTheDocument();
    expect(screen.getByText('Effective June 23, 2025')).toBeInTheDocument();
    expect(screen.getByText(/Phone numbers and SMS opt-in data are never shared with or sold to third parties/)).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Opting out of text messages' }).parentElement).toHaveTextContent(/Reply STOP/);
    expect(screen.getByRole('heading', { name: 'Changes to this policy' })).toBeInTheDocument();
    expect(screen.getByText(/encrypted at rest/)).toBeInTheDocument();
    expect(screen.getByText(/Twilio, keeps no copy of what you write/)).toBeInTheDocument();
    // Voice notes are heard by one more party, named here and on the Vault card.
    expect(screen.getByText(/Twilio, keeps no copy of what you write/)).toHaveTextContent(/written out as words by a transcription service, on our own servers or sent to a provider/);
  });

  it('links home, to the terms, support and the account pages', () => {
    renderPrivacy();
    expect(screen.getByRole('link', { name: 'Back to home' })).toHaveAttribute('href', '/');
    expect(screen.getAllByRole('link', { name: 'Terms of Service' }).map((link) => link.getAttribute('href'))).toContain('/terms');
    expect(screen.getByRole('link', { name: 'support page' })).toHaveAttribute('href', '/support');
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/sign-in');
    expect(screen.getByRole('link', { name: 'Create an account' })).toHaveAttribute('href', '/sign-up');
  });

  it('says where to delete the account: Settings → Delete my account', () => {
    renderPrivacy();
    const choices = screen.getByRole('heading', { name: 'Your choices' }).parentElement!;
    expect(choices).toHaveTextContent(`Settings → ${messages.accountDeletion.title}`);
  });

  it('is indexable, with its canonical address', () => {
    renderPrivacy();
    expect(document.title).toBe('Privacy Policy · Jotline');
    expect(document.head.querySelector('link[rel="canonical"]')).toHaveAttribute('href', 'https://jotline.app/privacy');
    expect(document.head.querySelector('meta[name="robots"]')).toHaveAttribute('content', 'index, follow');
  });
});
