// One walk through the task console in Chromium, shared by the console tests of each server
// (SDK 2.x over HTTP, the Durable Object in Miniflare): tasks a client creates appear, a status
// change shows without a reload, an input request answered from the page completes its task, a
// cancel from the page reaches the running work, and a request without the cookie is refused.
import assert from 'node:assert/strict';

export const CONSOLE_COOKIE = { name: 'ops', value: 'opensesame' };
/** The `authorize` of these consoles: the cookie above. */
export const cookieAuthorize = (request) => (request.headers.get('cookie') ?? '').split(/;\s*/).includes(`${CONSOLE_COOKIE.name}=${CONSOLE_COOKIE.value}`);
/** What the `ask` tool of these servers asks (an elicitation with one string field). */
export const ASK = {
  mode: 'form',
  message: 'What is your name?',
  requestedSchema: { type: 'object', properties: { name: { type: 'string', description: 'as it should be greeted' } }, required: ['name'] },
};

export async function until(predicate, what, ms = 10_000) {
  const end = Date.now() + ms;
  for (;;) {
    const value = await predicate();
    if (value) return value;
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * `host`: `{ origin, consolePath, start(tool) -> taskId, status(taskId) -> string, aborted(taskId)
 * -> boolean | Promise<boolean>, screenshot? }` (`screenshot`: a PNG path for the page with the
 * filled answer form); its tools: `hold` (sets a status message, then waits for its
 * signal) and `ask` (elicits ASK, completes with `Hello, <name>!`).
 */
export async function walkThroughConsole(page, host) {
  const consoleUrl = `${host.origin}${host.consolePath}/`;
  // Refused without the cookie: the page, its events, its JSON, an answer.
  for (const [method, route] of [['GET', '/'], ['GET', '/events'], ['GET', '/tasks'], ['GET', '/figures'], ['POST', '/tasks/x/answer']]) {
    const res = await fetch(`${host.origin}${host.consolePath}${route}`, { method, headers: { 'content-type': 'application/json', cookie: 'ops=guess' }, body: method === 'POST' ? '{"requestId":"1","result":{}}' : undefined });
    assert.equal(res.status, 403, `${method} ${route} without the cookie`);
  }

  await page.setViewportSize({ width: 1180, height: 620 });
  await page.context().addCookies([{ ...CONSOLE_COOKIE, url: host.origin }]);
  const nav = [];
  page.on('framenavigated', (frame) => frame === page.mainFrame() && nav.push(frame.url()));
  await page.goto(consoleUrl);
  await page.waitForSelector('#conn[data-state=live]');
  const row = (id) => page.locator(`tr[data-task-id="${id}"]`);

  const held = await host.start('hold');
  const asking = await host.start('ask');
  await row(held).waitFor();
  await row(asking).waitFor();
  await page.waitForSelector(`tr[data-task-id="${held}"] td.msg:text-is("holding until cancelled")`);
  // The status change to input_required shows without a reload.
  await page.waitForSelector(`tr[data-task-id="${asking}"][data-status=input_required]`);
  // The runtime's figures, live: both tasks' work runs, one of them waits on its client.
  await page.waitForSelector('#figures li[data-figure="running"]:text-is("running 2")');
  await page.waitForSelector('#figures li[data-figure="waiting for input"]:text-is("waiting for input 1")');

  // The pending request, answered from the page: a form from the requested schema.
  await row(asking).locator('button.id').click();
  const form = page.locator('#detail-body form.answer');
  await form.waitFor();
  assert.equal(await page.locator('#detail-body .ask').innerText(), ASK.message);
  assert.equal(await form.locator('input[name=name]').getAttribute('required'), '');
  await form.getByLabel('name').fill('Ada');
  if (host.screenshot) await page.screenshot({ path: host.screenshot });
  await form.getByRole('button', { name: 'Accept' }).click();
  await page.waitForSelector(`tr[data-task-id="${asking}"][data-status=completed]`).catch(async (err) => {
    // What the page shows, and what the client sees.
    err.message += `\ndetails: ${await page.locator('#detail-body').innerText()}\nrow: ${await row(asking).innerText()}\nclient: ${await host.status(asking)}`;
    throw err;
  });
  await page.waitForSelector('#detail-body pre.outcome');
  assert.match(await page.locator('#detail-body pre.outcome').innerText(), /Hello, Ada!/);
  assert.equal(await host.status(asking), 'completed', 'the client sees the task completed');

  // Cancel from the page: the work's signal fires, the client sees cancelled.
  assert.equal(await host.aborted(held), false);
  await row(held).getByRole('button', { name: `Cancel task ${held}` }).click();
  await page.waitForSelector(`tr[data-task-id="${held}"][data-status=cancelled]`);
  await until(() => host.aborted(held), 'the work of the cancelled task to stop');
  assert.equal(await host.status(held), 'cancelled');
  await page.waitForSelector('#figures li[data-figure="running"]:text-is("running 0")');
  const figures = await (await fetch(`${host.origin}${host.consolePath}/figures`, { headers: { cookie: `${CONSOLE_COOKIE.name}=${CONSOLE_COOKIE.value}` } })).json();
  assert.equal(figures.running, 0);
  assert.ok(figures.tasks.completed >= 1 && figures.tasks.cancelled >= 1, JSON.stringify(figures));

  assert.equal(nav.length, 1, `one document, no reload: ${nav.join(', ')}`);
  return { held, asking };
}
