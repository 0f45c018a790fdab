import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { messages } from '../../../shared/messages';
import { apiError, installFakeApi, networkDown, reply, type FakeApi } from '../../test/fake-api';
import { RedirectIfSignedIn } from '../../features/auth/guards';
import { renderApp } from '../../test/render-app';
import { SignInPage } from './SignInPage';

const copy = messages.signInByText;
const routes = [{ path: '/sign-in', element: <RedirectIfSignedIn><SignInPage /></RedirectIfSignedIn> }];

let api: FakeApi;
beforeEach(() => {
  api = installFakeApi();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

async function openTextLink() {
  const user = userEvent.setup({ delay: null });
  renderApp(routes, ['/sign-in']);
  await user.click(screen.getByRole('button', { name: copy.switchTo }));
  return user;
}

describe('sign-in page: text me a sign-in link', () => {
  it('asks for the phone, texts the link and says to check the phone, all from the keyboard', async () => {
    api.on('POST /api/auth/link', reply(200, {}));
    const user = await openTextLink();
    const phone = screen.getByLabelText(copy.phoneLabel);
    expect(phone).toHaveFocus();
    await user.keyboard('(202) 555-0123{Enter}');
    expect(await screen.findByText(copy.sentTitle)).toBeInTheDocument();
    expect(screen.getByText(copy.sent)).toBeInTheDocument();
    // A number that texted STOP gets no link: how to turn texts back on, said to everyone alike.
    expect(screen.getByText(/texted STOP to Jotline, texts to it are off: text START to \(\d{3}\) \d{3}-\d{4} from it/)).toBeInTheDocument();
    expect(api.requestsTo('POST /api/auth/link').map((r) => r.body)).toEqual([{ phoneNumber: '+12025550123' }]);
    expect(screen.queryByLabelText('Password')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: copy.useAnotherNumber }));
    expect(screen.getByLabelText(copy.phoneLabel)).toHaveFocus();
  });

  it('refuses a number that is not a US phone without calling the server', async () => {
    const user = await openTextLink();
    await user.type(screen.getByLabelText(copy.phoneLabel), '12345');
    await user.click(screen.getByRole('button', { name: copy.send }));
    expect(await screen.findByText(messages.signUp.invalidPhone)).toBeInTheDocument();
    expect(screen.getByLabelText(copy.phoneLabel)).toHaveAttribute('aria-invalid', 'true');
    expect(api.fetch).not.toHaveBeenCalled();
  });

  it.each([
    ['too many asks', apiError(429, 'RATE_LIMITED', 'Too many'), copy.rateLimited],
    ['a server error', apiError(500, 'INTERNAL', 'boom'), messages.generic.internal],
  ])('explains %s and keeps the number to try again', async (_, answer, shown) => {
    api.once('POST /api/auth/link', answer);
    api.on('POST /api/auth/link', reply(200, {}));
    const user = await openTextLink();
    await user.type(screen.getByLabelText(copy.phoneLabel), '2025550123');
    await user.click(screen.getByRole('button', { name: copy.send }));
    expect(await screen.findByText(shown)).toBeInTheDocument();
    expect(screen.getByLabelText(copy.phoneLabel)).toHaveValue('2025550123');
    await user.click(screen.getByRole('button', { name: copy.send }));
    expect(await screen.findByText(copy.sentTitle)).toBeInTheDocument();
  });

  it('says when the server cannot be reached', async () => {
    api.on('POST /api/auth/link', networkDown);
    const user = await openTextLink();
    await user.type(screen.getByLabelText(copy.phoneLabel), '2025550123');
    await user.click(screen.getByRole('button', { name: copy.send }));
    expect(await screen.findByText(messages.signIn.connection)).toBeInTheDocument();
  });

  it('goes back to the password form', async () => {
    const user = await openTextLink();
    await user.click(screen.getByRole('button', { name: copy.switchBack }));
    expect(screen.getByLabelText('Password')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: copy.switchTo })).toBeInTheDocument();
  });
});
