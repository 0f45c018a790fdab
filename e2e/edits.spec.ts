import { expect, test, type Page } from '@playwright/test';
import { signUpVerified } from './support';

// Nothing written is lost to an edit: a text that arrives while its entry is open in the editor, a
// stale tab's save, a double click on Save, and Escape on a written new entry.

const editorOf = (page: Page) => page.getByRole('form', { name: 'Edit entry' });

test('a text arriving while its entry is being edited is kept: the save is refused and the text offered after the edit', async ({ page, request }) => {
  const account = await signUpVerified(page, request);
  const text = async (body: string) => expect((await request.post('/api/dev/phone/send', { data: { from: account.phone, body } })).ok()).toBeTruthy();
  await text('Morning run.');
  const card = page.locator('article').first();
  await expect(card).toContainText('Morning run.');

  await card.getByRole('button', { name: /Edit entry/ }).click();
  const editor = editorOf(page);
  await editor.getByLabel('Entry').fill('Morning run by the lake.');
  await text('Dinner at Greektown with Sam.'); // arrives while the editor is open
  await expect(page.getByText('Words').locator('..')).toHaveText('Words7'); // the live stream has it: 2 + 5 words
  await editor.getByRole('button', { name: 'Save' }).click();

  const alert = editor.getByRole('alert');
  await expect(alert).toContainText('A text arrived while you were editing');
  await expect(alert).toContainText('Dinner at Greektown with Sam.');
  await expect(editor.getByLabel('Entry')).toHaveValue('Morning run by the lake.');
  await expect(editor.getByRole('button', { name: 'Save' })).toBeDisabled();
  await alert.getByRole('button', { name: 'Add it after my edit' }).click();
  await expect(editor.getByLabel('Entry')).toHaveValue('Morning run by the lake.\n\nDinner at Greektown with Sam.');
  await editor.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Entry updated')).toBeVisible();
  await expect(editor).toBeHidden();

  await page.reload();
  await expect(page.locator('article').first()).toContainText('Morning run by the lake.');
  await expect(page.locator('article').first()).toContainText('Dinner at Greektown with Sam.');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: test.info().outputPath('after-merge-390.png') });
});

test("a stale tab's save is refused and shows how the entry reads now", async ({ page, request, context }) => {
  await signUpVerified(page, request);
  await page.getByRole('button', { name: 'New entry' }).click();
  const dialog = page.getByRole('dialog', { name: 'New entry' });
  await dialog.getByLabel('Your entry').fill('Rain all day.');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();

  const other = await context.newPage();
  await other.goto('/journal');
  await expect(other.locator('article').first()).toContainText('Rain all day.');

  await page.locator('article').first().getByRole('button', { name: /Edit entry/ }).click();
  await other.locator('article').first().getByRole('button', { name: /Edit entry/ }).click();
  await editorOf(other).getByLabel('Entry').fill('Sun all afternoon.');
  await editorOf(other).getByRole('button', { name: 'Save' }).click();
  await expect(other.getByText('Entry updated')).toBeVisible();

  await editorOf(page).getByLabel('Entry').fill('Rain all day. Cold too.');
  await editorOf(page).getByRole('button', { name: 'Save' }).click();
  const alert = editorOf(page).getByRole('alert');
  await expect(alert).toContainText('changed in another tab');
  await expect(alert).toContainText('Sun all afternoon.');
  await page.screenshot({ path: test.info().outputPath('stale-tab-1280.png') });
  await alert.getByRole('button', { name: 'Keep my edit as it is' }).click();
  await editorOf(page).getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Entry updated')).toBeVisible();
  await expect(page.locator('article').first()).toContainText('Rain all day. Cold too.');
});

test('a double click on Save makes one entry, and Escape on a written entry asks first', async ({ page, request }) => {
  await signUpVerified(page, request);
  await page.getByRole('button', { name: 'New entry' }).click();
  const dialog = page.getByRole('dialog', { name: 'New entry' });
  await dialog.getByLabel('Your entry').fill('Saved once.');
  await dialog.getByRole('button', { name: 'Save' }).dblclick();
  await expect(dialog).toBeHidden();
  await expect(page.locator('article')).toHaveCount(1);
  await page.reload();
  await expect(page.locator('article')).toHaveCount(1);

  await page.getByRole('button', { name: 'New entry' }).click();
  await dialog.getByLabel('Your entry').fill('Half a thought');
  await page.keyboard.press('Escape');
  const ask = page.getByRole('alertdialog', { name: 'Discard this entry?' });
  await expect(ask).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('discard-1280.png') });
  await ask.getByRole('button', { name: 'Keep writing' }).click();
  await expect(dialog.getByLabel('Your entry')).toHaveValue('Half a thought');
  await page.keyboard.press('Escape');
  await ask.getByRole('button', { name: 'Discard' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.locator('article')).toHaveCount(1);
});
