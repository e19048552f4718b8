import { describe, expect, it } from 'vitest';
import { hasChromium, openPage } from './dashboard-browser.js';
import { useDashboard } from './dashboard-session.js';

const dash = useDashboard();

describe.skipIf(!hasChromium)('the Control page’s users in Chromium', () => {
  it('removes a user, shows the server’s answer, and shows its refusal of one that is gone', async () => {
    await dash.startServer();
    await dash.start('carol@example.com');
    const { page, errors } = await openPage(dash.browser!, dash.url);
    await dash.visit(page, 'control');
    const users = page.getByRole('form', { name: 'Users' });
    const listed = () =>
      users.getByTestId('user-table').locator('tbody td:first-child').allTextContents();
    await expect
      .poll(listed)
      .toEqual(['alice@example.com', 'bob@example.com', 'carol@example.com']);
    expect(await users.getByTestId('user-count').textContent()).toBe('3 users');
    // The live region answers are said in is there before any answer.
    expect(await users.locator('[aria-live="polite"]').count()).toBe(1);
    expect(await users.locator('[aria-live="polite"]').textContent()).toBe('');
    await users.getByLabel('E-mail').fill('carol@example.com');
    await users.getByRole('button', { name: 'Remove user' }).click();
    await expect
      .poll(() => users.getByRole('status').textContent())
      .toBe('✓ Removed carol@example.com; 1 code dropped (200)');
    const carol = await (
      await fetch(`${dash.url}/v1/users/exists?email=carol%40example.com`, {
        headers: { authorization: 'Bearer uas-demo-token' },
      })
    ).json();
    expect(carol).toEqual({ exists: false, token_count: 0 });
    await expect.poll(listed).toEqual(['alice@example.com', 'bob@example.com']);

    await users.getByRole('button', { name: 'Remove user' }).click();
    await expect
      .poll(() => users.getByRole('alert').textContent())
      .toBe(
        '✗ The server refused it: 404: no user has the e-mail "carol@example.com", among those of the config and those added live',
      );
    // The same refusal again is a new message (a new element), which a screen reader says again.
    const before = await users.getByRole('alert').elementHandle();
    await users.getByRole('button', { name: 'Remove user' }).click();
    await expect.poll(() => before?.evaluate((node) => node.isConnected)).toBe(false);
    expect(await users.getByRole('alert').textContent()).toContain('404: no user has the e-mail');
    await users.getByLabel('E-mail').fill('  ');
    await users.getByRole('button', { name: 'Remove user' }).click();
    await expect
      .poll(() => users.getByRole('alert').textContent())
      .toBe('✗ Enter the e-mail of the user to add or remove.');
    await users.getByLabel('E-mail').fill('not an e-mail');
    await users.getByRole('button', { name: 'Remove user' }).click();
    await expect
      .poll(() => users.getByRole('alert').textContent())
      .toContain('expected an e-mail address');

    // Enter in the field adds: the first of the form's buttons.
    await users.getByLabel('E-mail').fill('carol@example.com');
    await users.getByLabel('E-mail').press('Enter');
    await expect.poll(() => users.getByRole('status').textContent()).toBe('✓ Added (200)');
    await expect
      .poll(listed)
      .toEqual(['alice@example.com', 'bob@example.com', 'carol@example.com']);
    // Past the first 50, the list says how many it leaves out.
    await fetch(`${dash.url}/__uas/users`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        users: Array.from({ length: 60 }, (_, index) => ({ email: `u${index}@example.com` })),
      }),
    });
    await users.getByLabel('E-mail').fill('dave@example.com');
    await users.getByLabel('E-mail').press('Enter');
    await expect
      .poll(() => users.getByTestId('user-count').textContent())
      .toBe('64 users; the first 50 shown');
    expect(errors).toEqual([]);
  });

  it('shows the users, faults and clock of the start again after a reset, made there or elsewhere', async () => {
    await dash.startServer();
    const { page, errors } = await openPage(dash.browser!, dash.url);
    page.on('dialog', (dialog) => void dialog.accept());
    await dash.visit(page, 'control');
    const users = page.getByRole('form', { name: 'Users' });
    const listed = () =>
      users.getByTestId('user-table').locator('tbody td:first-child').allTextContents();
    const faults = page.getByRole('form', { name: 'Script faults (failNext)' }).locator('pre');
    const clock = page.getByTestId('clock-now');
    await expect.poll(() => clock.textContent()).toMatch(/^manual clock at /);
    const started = await clock.textContent();

    await users.getByLabel('E-mail').fill('dave@example.com');
    await users.getByRole('button', { name: 'Add user' }).click();
    await expect.poll(() => users.getByTestId('user-count').textContent()).toBe('4 users');
    await page.getByRole('button', { name: 'Schedule' }).click();
    await expect.poll(() => faults.textContent()).toContain('503');
    await page.getByRole('button', { name: 'Advance the manual clock' }).click();
    await expect.poll(() => clock.textContent()).not.toBe(started);

    await page.getByRole('button', { name: 'Reset the emulator' }).click();
    await expect
      .poll(listed)
      .toEqual(['alice@example.com', 'bob@example.com', 'carol@example.com']);
    expect(await users.getByTestId('user-count').textContent()).toBe('3 users');
    await expect.poll(() => faults.textContent()).not.toContain('503');
    await expect.poll(() => clock.textContent()).toBe(started);

    // A reset sent from elsewhere (a terminal, a test) shows too.
    await users.getByLabel('E-mail').fill('erin@example.com');
    await users.getByRole('button', { name: 'Add user' }).click();
    await expect.poll(() => users.getByTestId('user-count').textContent()).toBe('4 users');
    await dash.send('/__uas/reset', { method: 'POST' });
    await expect.poll(() => users.getByTestId('user-count').textContent()).toBe('3 users');
    expect(errors).toEqual([]);
  });
});

describe.skipIf(!hasChromium)('the scripted faults on Control, in Chromium', () => {
  it('reads the faults again as traffic spends them', async () => {
    await dash.startServer();
    const { page, errors } = await openPage(dash.browser!, dash.url);
    await dash.visit(page, 'control');
    const form = page.getByRole('form', { name: 'Script faults (failNext)' });
    await form.getByLabel('Operation').selectOption('exists');
    await form.getByRole('button', { name: 'Schedule' }).click();
    const faults = form.locator('pre');
    await expect.poll(() => faults.textContent()).toContain('"remaining": 1');
    expect((await dash.exists('email=alice@example.com')).status).toBe(503);
    await expect.poll(() => faults.textContent(), { timeout: 5_000 }).not.toContain('remaining');
    expect(errors).toEqual([]);
  });
});

/** A server that issued codes to carol and alice, and a page on its inbox showing both. */
async function inboxOfTwo() {
  await dash.startServer();
  await dash.start('carol@example.com');
  await dash.start('alice@example.com');
  const { page, errors } = await openPage(dash.browser!, dash.url);
  await dash.visit(page, 'inbox');
  const inboxEmails = async () =>
    (await page.getByTestId('inbox').locator('tbody td:first-child').allTextContents()).sort();
  await expect.poll(inboxEmails).toEqual(['alice@example.com', 'carol@example.com']);
  return { page, errors, inboxEmails };
}

describe.skipIf(!hasChromium)('the inbox after a user is removed on Control, in Chromium', () => {
  it('no longer shows the codes the removal dropped', async () => {
    const { page, errors, inboxEmails } = await inboxOfTwo();
    await page.getByRole('link', { name: 'Control' }).click();
    const users = page.getByRole('form', { name: 'Users' });
    await users.getByLabel('E-mail').fill('CAROL@example.com');
    await users.getByRole('button', { name: 'Remove user' }).click();
    await expect
      .poll(() => users.getByRole('status').textContent())
      .toBe('✓ Removed carol@example.com; 1 code dropped (200)');
    await page.getByRole('link', { name: 'Sign-in inbox' }).click();
    await expect.poll(inboxEmails).toEqual(['alice@example.com']);
    expect(errors).toEqual([]);
  });

  it('follows users added and removed elsewhere: the inbox drops the codes, Control reads the list again', async () => {
    const { page, errors, inboxEmails } = await inboxOfTwo();
    // A script removes carol: the page learns it from the event stream alone.
    const removed = await dash.send('/__uas/users/carol%40example.com', { method: 'DELETE' });
    expect(removed.status).toBe(200);
    await expect.poll(inboxEmails).toEqual(['alice@example.com']);
    await page.getByRole('link', { name: 'Control' }).click();
    const users = page.getByRole('form', { name: 'Users' });
    await expect.poll(() => users.getByTestId('user-count').textContent()).toBe('2 users');
    const added = await dash.send('/__uas/users', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ users: [{ email: 'zoe@example.com' }] }),
    });
    expect(added.status).toBe(200);
    await expect.poll(() => users.getByTestId('user-count').textContent()).toBe('3 users');
    expect(errors).toEqual([]);
  });
});

describe.skipIf(!hasChromium)('adding a user that is there, in Chromium', () => {
  it('asks before it replaces one, keeps it when told not to, and sets the phone and token_count given', async () => {
    await dash.startServer();
    const { page, errors } = await openPage(dash.browser!, dash.url);
    await dash.visit(page, 'control');
    const users = page.getByRole('form', { name: 'Users' });
    const asked: string[] = [];
    let answer = false;
    page.on('dialog', (dialog) => {
      asked.push(dialog.message());
      void (answer ? dialog.accept() : dialog.dismiss());
    });
    const alice = async () =>
      (await (await fetch(`${dash.url}/__uas/users?email=alice%40example.com`)).json()) as {
        users: unknown[];
      };
    await users.getByLabel('E-mail').fill('alice@example.com');
    await users.getByLabel('token_count').fill('5');
    await users.getByRole('button', { name: 'Add user' }).click();
    await expect.poll(() => asked.length).toBe(1);
    expect(asked[0]).toBe(
      'alice@example.com is a user already (phone +14155550101, token_count 2). Replace it with no phone number, token_count 5?',
    );
    // Told not to: nothing was sent.
    expect((await alice()).users).toEqual([
      { email: 'alice@example.com', phone_number: '+14155550101', token_count: 2 },
    ]);
    answer = true;
    await users.getByLabel('Phone number').fill('+14155550199');
    await users.getByRole('button', { name: 'Add user' }).click();
    await expect
      .poll(() => users.getByRole('status').textContent())
      .toBe('✓ Replaced the user of that e-mail (200)');
    expect(asked).toHaveLength(2);
    expect((await alice()).users).toEqual([
      { email: 'alice@example.com', phone_number: '+14155550199', token_count: 5 },
    ]);
    // A new user is added without a question (Alice's new number is hers: left out).
    await users.getByLabel('E-mail').fill('erin@example.com');
    await users.getByLabel('Phone number').fill('');
    await users.getByRole('button', { name: 'Add user' }).click();
    await expect.poll(() => users.getByRole('status').textContent()).toBe('✓ Added (200)');
    expect(asked).toHaveLength(2);
    expect(errors).toEqual([]);
  });
});
