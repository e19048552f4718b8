import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_USERS, USERS_PER_REQUEST_MAX } from '../../src/core/admin/dev-api-bounds.js';
import { DEV_API_ROUTE_LIST } from '../../src/core/admin/dev-api-table.js';
import { ROOT } from './doc-blocks.js';

// docs/dev-api.md is the reference of the dev API: a route the table gains is documented there.

describe('docs/dev-api.md', () => {
  const page = readFileSync(join(ROOT, 'docs/dev-api.md'), 'utf8');

  it.each(DEV_API_ROUTE_LIST.map((route) => [`${route.method} ${route.path}`]))(
    'names the route `%s`',
    (route) => {
      expect(page).toContain(`\`${route}`);
    },
  );
});

describe('docs/dev-api.md on POST /__uas/users', () => {
  const page = readFileSync(join(ROOT, 'docs/dev-api.md'), 'utf8');
  const row = page.split('\n').find((line) => line.startsWith('| `POST /__uas/users`')) ?? '';
  const written = (n: number) => n.toLocaleString('en-US');

  it('states the most users one body may hold, and the most in all, as the route refuses them', () => {
    expect(row).toContain(`at most ${written(USERS_PER_REQUEST_MAX)} users in one body`);
    expect(row).toContain(`${written(MAX_USERS)} in all`);
  });
});
