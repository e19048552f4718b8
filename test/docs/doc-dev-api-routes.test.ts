import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
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
