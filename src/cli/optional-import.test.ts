import { dirname } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CliError } from './io.js';
import { importOptional } from './optional-import.js';

/** What loading a module whose package is not installed throws. */
function notFound(name: string): () => Promise<never> {
  return () =>
    Promise.reject(
      Object.assign(new Error(`Cannot find package '${name}' imported from /x/dist/cli/top.js`), {
        code: 'ERR_MODULE_NOT_FOUND',
      }),
    );
}

async function messageOf(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(CliError);
  return (error as CliError).message;
}

describe('importOptional', () => {
  it('names the install command that works where this uas runs: -g for a global uas', async () => {
    // npm's own global folder: the one above node's bin.
    const prefix = dirname(dirname(process.execPath));
    const global = pathToFileURL(`${prefix}/lib/node_modules/uas/dist/cli/top.js`).href;
    expect(await messageOf(importOptional(notFound('ink'), 'screen', 'uas top', global))).toBe(
      'uas top needs ink and react, optional dependencies of uas that are not installed here: npm install -g ink@6 react@19',
    );
  });

  it('names the global folder of a uas installed with -g --prefix elsewhere, quoted for a shell', async () => {
    const tools = 'file:///opt/uas-tools/lib/node_modules/uas/dist/cli/top.js';
    expect(await messageOf(importOptional(notFound('msw'), 'msw', 'x', tools))).toMatch(
      /: npm install -g --prefix \/opt\/uas-tools msw@2$/,
    );
    const odd = "file:///home/me/it's%20mine/lib/node_modules/uas/dist/cli/top.js";
    expect(await messageOf(importOptional(notFound('msw'), 'msw', 'x', odd))).toMatch(
      /: npm install -g --prefix '\/home\/me\/it'\\''s mine' msw@2$/,
    );
  });

  it('names a project install for a uas in a project or a clone', async () => {
    const local = 'file:///home/me/shop/node_modules/uas/dist/cli/top.js';
    expect(await messageOf(importOptional(notFound('ioredis'), 'redis', 'x', local))).toMatch(
      /: npm install --save-dev ioredis@5$/,
    );
  });

  it('names the npx flags for a uas that npx runs from its cache', async () => {
    const npx = 'file:///home/me/.npm/_npx/167be01150d302ce/node_modules/uas/dist/cli/top.js';
    expect(await messageOf(importOptional(notFound('react'), 'screen', 'uas top', npx))).toBe(
      'uas top needs ink and react, optional dependencies of uas that are not installed here: add --package ink@6 --package react@19 to the npx command',
    );
  });
});
