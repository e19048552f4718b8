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

/** What a page reads of each request on the event stream: whole records where it lists them. */
export function requestEventsOf(page: PageId): 'full' | 'summary' {
  return page === 'requests' || page === 'buckets' ? 'full' : 'summary';
}
