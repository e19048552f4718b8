import { signal } from '@preact/signals';

/** The dashboard's pages, in the order of its navigation. */
export const PAGES = [
  { id: 'overview', title: 'Overview' },
  { id: 'buckets', title: 'Buckets' },
  { id: 'requests', title: 'Requests' },
  { id: 'inbox', title: 'Sign-in inbox' },
  { id: 'check', title: 'Integration check' },
  { id: 'control', title: 'Control' },
] as const;

export type PageId = (typeof PAGES)[number]['id'];

/** The page and its parameters, from the URL's fragment (`#/requests?id=12`). */
export interface Route {
  page: PageId;
  params: URLSearchParams;
}

/** Reads a fragment as a route; anything unknown is the overview. */
export function parseRoute(hash: string): Route {
  const [path = '', query = ''] = hash.replace(/^#\/?/, '').split('?');
  const page = PAGES.find((entry) => entry.id === path)?.id ?? 'overview';
  return { page, params: new URLSearchParams(query) };
}

/** The current route, following the fragment. */
export const route = signal<Route>(parseRoute(location.hash));
addEventListener('hashchange', () => {
  route.value = parseRoute(location.hash);
});

/** The fragment of a page with parameters. */
export function href(page: PageId, params: Record<string, string> = {}): string {
  const query = new URLSearchParams(params).toString();
  return `#/${page}${query === '' ? '' : `?${query}`}`;
}

/** Whether a page lists requests (and reads whole records of them from the event stream). */
export function listsRequests(page: PageId): boolean {
  return page === 'requests' || page === 'buckets';
}
