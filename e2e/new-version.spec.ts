import { expect, test, type Page } from '@playwright/test';
import { signUpVerified } from './support';

/**
 * What an open tab meets after a new build: the shell names a new entry script, and the chunks this
 * tab has not loaded yet are gone (a build two deploys back).
 */
async function deployNewBuild(page: Page) {
  await page.route('**/assets/*.js', (route) => route.fulfill({ status: 404, contentType: 'text/html', body: '<!doctype html><title>Not found</title>' }));
  await page.route(
    (url) => url.pathname === '/journal',
    async (route) => {
      const response = await route.fetch();
      const body = (await response.text()).replace(/\/assets\/index-[\w-]+\.js/, '/assets/index-NewBuild1.js');
      await route.fulfill({ response, body });
    },
  );
}

test('a tab opened before a new build offers a reload instead of failing', async ({ page, request }) => {
  await signUpVerified(page, request);
  await expect(page.getByRole('button', { name: 'Create Your First Entry' })).toBeVisible();
  await deployNewBuild(page);

  // The account menu's code was never loaded in this tab: it is one of the chunks the new build replaced.
  await page.getByRole('button', { name: 'Account menu' }).click();
  const prompt = page.getByRole('alert').filter({ hasText: 'A new version of Jotline is available — reload' });
  await expect(prompt).toBeVisible();
  // The failure is no connection problem: its toast gives way to the prompt.
  await expect(page.getByText('Please check your connection and try again')).toBeHidden();

  // The reload gets the new build (here, the build that runs).
  await page.unrouteAll();
  await prompt.getByRole('button', { name: 'reload' }).click();
  await expect(page.getByRole('button', { name: 'Create Your First Entry' })).toBeVisible();
  await expect(prompt).toBeHidden();
  await page.getByRole('button', { name: 'Account menu' }).click();
  await expect(page.getByRole('menuitem', { name: 'Export' })).toBeVisible();
});

test('a page of the old build that cannot load asks for a reload, not "Unexpected Application Error"', async ({ page, request }) => {
  await signUpVerified(page, request);
  await deployNewBuild(page);
  // A page opened inside the app whose chunk is gone (Settings, as its link in the account menu opens it).
  await page.evaluate(() => {
    window.history.pushState({}, '', '/settings');
    window.dispatchEvent(new PopStateEvent('popstate'));
  });
  await expect(page.getByRole('alert').filter({ hasText: 'A new version of Jotline is available — reload' })).toBeVisible();
  await expect(page.getByText('Unexpected Application Error!')).toBeHidden();
});

test('a chunk that fails while the app is unchanged (offline) does not claim a new version', async ({ page, request }) => {
  await signUpVerified(page, request);
  await expect(page.getByRole('button', { name: 'Create Your First Entry' })).toBeVisible();
  await page.route('**/assets/*.js', (route) => route.abort('internetdisconnected'));
  await page.getByRole('button', { name: 'Account menu' }).click();
  await expect(page.getByText('Please check your connection and try again')).toBeVisible();
  await expect(page.getByText('A new version of Jotline is available')).toBeHidden();
});
