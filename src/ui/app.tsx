/** @jsxImportSource preact */
import { useEffect } from 'preact/hooks';
import { needsToken } from './dev-api.js';
import { feed, health, notice, listRequests } from './live.js';
import { CheckPage } from './pages/check-page.js';
import { BucketsPage } from './pages/buckets-page.js';
import { ControlPage } from './pages/control-page.js';
import { InboxPage } from './pages/inbox-page.js';
import { OverviewPage } from './pages/overview-page.js';
import { RequestsPage } from './pages/requests-page.js';
import { TokenPrompt } from './parts/token-prompt.js';
import { useKeptFocus } from './parts/use-kept-focus.js';
import { href, listsRequests, PAGES, route } from './route.js';

const VIEWS = {
  overview: OverviewPage,
  buckets: BucketsPage,
  requests: RequestsPage,
  inbox: InboxPage,
  check: CheckPage,
  control: ControlPage,
};

/** The dashboard: navigation, the stream's state, a notice, and the page of the route. */
export function App() {
  const { page } = route.value;
  // The pages that list requests read whole records from the journal; counts come from the stream.
  useEffect(() => listRequests(listsRequests(page)), [page]);
  useKeptFocus();
  const View = VIEWS[page];
  const title = PAGES.find((entry) => entry.id === page)?.title ?? '';
  const status = feed.value;
  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <span class="brand">uas dashboard</span>
        <nav aria-label="Pages">
          <ul>
            {PAGES.map((entry) => (
              <li key={entry.id}>
                <a href={href(entry.id)} aria-current={entry.id === page ? 'page' : undefined}>
                  {entry.title}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <p class={`feed feed-${status.status}`} role="status" data-testid="feed-status">
          <span aria-hidden="true">{status.status === 'live' ? '● ' : '○ '}</span>
          {status.status === 'live' ? 'Live' : status.detail}
          {health.value?.version === undefined ? '' : ` · uas ${health.value.version}`}
        </p>
      </header>
      <main id="main" tabIndex={-1}>
        <h1>{title}</h1>
        {notice.value === undefined ? null : (
          <p class="notice" role="status" data-testid="notice">
            {notice.value}{' '}
            <button
              type="button"
              onClick={() => {
                // The button goes with the notice: the focus stays on the page, not the body.
                document.getElementById('main')?.focus();
                notice.value = undefined;
              }}
            >
              Dismiss
            </button>
          </p>
        )}
        {needsToken.value || status.status === 'token' ? <TokenPrompt /> : <View />}
      </main>
    </>
  );
}
