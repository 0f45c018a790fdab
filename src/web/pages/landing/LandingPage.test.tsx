import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { messages } from '../../../shared/messages';
import { LandingPage } from './LandingPage';
import { faqItems } from './faq';

function renderLanding() {
  return render(
    <MemoryRouter>
      <LandingPage />
    </MemoryRouter>,
  );
}

describe('LandingPage', () => {
  it('shows the headline and links every call to action to sign-up', () => {
    renderLanding();
    expect(screen.getByRole('heading', { level: 1, name: 'The easiest way to keep a journal' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/sign-in');
    for (const name of ['Start Now', /Start journaling for free/, /Start Journaling Now - It's Free/]) {
      expect(screen.getByRole('link', { name })).toHaveAttribute('href', '/sign-up');
    }
    const trialButtons = screen.getAllByRole('link', { name: /Start 10-Day Free Trial/ });
    expect(trialButtons).toHaveLength(2);
    for (const button of trialButtons) expect(button).toHaveAttribute('href', '/sign-up');
  });

  it('renders without React warnings', () => {
    const consoleError = vi.spyOn(console, 'error');
    renderLanding();
    expect(consoleError).not.toHaveBeenCalled();
    consoleError.mockRestore();
  });

  it('shows the six features', () => {
    renderLanding();
    const titles = screen.getAllByRole('heading', { level: 3 }).map((heading) => heading.textContent);
    expect(titles).toEqual(
      expect.arrayContaining([
        'Text Your Journal',
        'Private. Encrypted. Secure.',
        'Export Anytime',
        'Insights & Analytics',
        'Search that works',
        'Daily Reminders',
      ]),
    );
  });

  it('prices both plans, with the yearly savings', () => {
    renderLanding();
    const monthly = screen.getByRole('article', { name: 'Monthly' });
    expect(within(monthly).getByText('$5.99')).toBeInTheDocument();
    expect(within(monthly).getByText('/month')).toBeInTheDocument();
    const yearly = screen.getByRole('article', { name: 'Yearly' });
    expect(within(yearly).getByText('$49.99')).toBeInTheDocument();
    expect(within(yearly).getByText('/year')).toBeInTheDocument();
    expect(within(yearly).getByText('Save $21.89 (30%)')).toBeInTheDocument();
    expect(within(yearly).getByText(/\$71\.88 if billed monthly/)).toBeInTheDocument();
    expect(screen.getAllByText(messages.landing.noCardRequired).length).toBeGreaterThanOrEqual(2);
  });

  it('offers a tap-to-text link to the journal number', () => {
    renderLanding();
    const link = screen.getByRole('link', { name: 'Text (555) 555-0100' });
    expect(link).toHaveAttribute('href', 'sms:+15555550100');
  });

  it('opens one FAQ answer at a time, and closes it again', async () => {
    const user = userEvent.setup();
    renderLanding();
    const [first, second] = faqItems;
    // Native disclosure widgets: they open without JavaScript and from the keyboard.
    const question = (text: string) => screen.getByText(text).closest('summary')!;
    const answerOf = (text: string) => question(text).closest('details')!;
    expect(document.querySelectorAll('#faq details')).toHaveLength(8);
    expect(document.querySelectorAll('#faq details[open]')).toHaveLength(0);

    await user.click(question(first!.question));
    expect(answerOf(first!.question).open).toBe(true);
    expect(answerOf(first!.question)).toHaveTextContent(first!.answer);

    await user.click(question(second!.question));
    expect(answerOf(second!.question).open).toBe(true);
    expect(answerOf(first!.question).open).toBe(false);

    await user.click(question(second!.question));
    expect(document.querySelectorAll('#faq details[open]')).toHaveLength(0);
  });

  it('answers the questions the spec requires', () => {
    const answers = faqItems.map((item) => item.answer).join('\n');
    expect(faqItems).toHaveLength(8);
    expect(answers).toMatch(/optional.*turn them off in settings/);
    expect(answers).toMatch(/cancel any time/);
    expect(answers).toMatch(/until the end of the current billing period/);
    expect(answers).toMatch(/export/i);
    expect(answers).toMatch(/Reply STOP.*does not cancel your subscription.*START to resume/s);
    expect(answers).toMatch(/combined into one daily entry/);
    expect(answers).toMatch(/10-day free trial.*No credit card required/);
  });

  it('links the footer to privacy, terms and support', () => {
    renderLanding();
    const footer = screen.getByRole('contentinfo');
    expect(within(footer).getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute('href', '/privacy');
    expect(within(footer).getByRole('link', { name: 'Terms of Service' })).toHaveAttribute('href', '/terms');
    expect(within(footer).getByRole('link', { name: 'Support' })).toHaveAttribute('href', '/support');
    expect(footer).toHaveTextContent(/© \d{4} Jotline/);
  });

  it('sets its title, description, canonical link and structured data', () => {
    const { container } = renderLanding();
    expect(document.title).toBe('Jotline: The easiest way to keep a journal');
    expect(document.head.querySelector('meta[name="description"]')).toHaveAttribute('content', expect.stringContaining('text message'));
    expect(document.head.querySelector('link[rel="canonical"]')).toHaveAttribute('href', 'https://jotline.app/');
    expect(document.head.querySelector('meta[name="robots"]')).toHaveAttribute('content', 'index, follow');
    expect(document.head.querySelector('meta[property="og:image"]')).toHaveAttribute('content', 'https://jotline.app/og-image.png');
    const jsonLd = JSON.parse(container.querySelector('script[type="application/ld+json"]')!.textContent!);
    const types = jsonLd['@graph'].map((node: { '@type': string }) => node['@type']);
    expect(types).toEqual(['WebApplication', 'FAQPage']);
  });
});
