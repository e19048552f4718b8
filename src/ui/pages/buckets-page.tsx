/** @jsxImportSource preact */
import type { Ref } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { devApi, type DevAnswer } from '../dev-api.js';
import {
  fillPercent,
  formatClock,
  formatCount,
  formatDuration,
  oneLine,
  outcomeLabel,
} from '../format.js';
import { live } from '../live.js';
import { useRefresh } from '../parts/use-refresh.js';
import { ServerAnswer } from '../parts/server-answer.js';
import { href, route } from '../route.js';

interface Bucket {
  key: string;
  level: string;
  tokens: number;
  remaining: number;
  burst: number;
  rate: string;
  allowed: number;
  rejected: number;
  next_token_ms: number;
  full_in_ms: number;
  last_seen: string;
}
interface BucketPage {
  total: number;
  offset: number;
  next_offset: number | null;
  buckets: Bucket[];
}

const PAGE_SIZE = 50;

/** Every bucket, a page at a time from the dev API: sorted, filtered, each with its detail. */
export function BucketsPage() {
  const params = route.value.params;
  const [search, setSearch] = useState(params.get('search') ?? '');
  const [sort, setSort] = useState('pressure');
  const [level, setLevel] = useState('');
  const [offset, setOffset] = useState(0);
  const [open, setOpen] = useState(params.get('open') ?? undefined);
  const [answer, setAnswer] = useState<DevAnswer>();
  // A link to this page (the navigation's, a bucket's) sets what it shows, also from this page.
  const linked = params.toString();
  useEffect(() => {
    setSearch(params.get('search') ?? '');
    setOpen(params.get('open') ?? undefined);
    setOffset(0);
  }, [linked]);
  // Read again at most once a second while traffic comes; not while a bucket of the table has
  // the focus, whose row a new order could take off the page (and the focus with it).
  const tick = useRefresh(1000);
  const [held, setHeld] = useState(false);
  const table = useFocusBackAtReset();
  const page = useBucketPage({ search, sort, level, offset }, tick, answer, held);
  const resetAll = async () => setAnswer(await devApi('DELETE', '/buckets'));
  return (
    <>
      <form class="filters" onSubmit={(event) => event.preventDefault()}>
        <label>
          Search keys{' '}
          <input
            type="search"
            value={search}
            onInput={(event) => {
              setSearch(event.currentTarget.value);
              setOffset(0);
            }}
          />
        </label>
        <label>
          Level{' '}
          <select
            value={level}
            onChange={(event) => {
              setLevel(event.currentTarget.value);
              setOffset(0);
            }}
          >
            <option value="">any</option>
            <option value="client">client</option>
            <option value="caller">caller</option>
          </select>
        </label>
        <label>
          Sort{' '}
          <select value={sort} onChange={(event) => setSort(event.currentTarget.value)}>
            <option value="pressure">emptiest first</option>
            <option value="recent">latest used</option>
            <option value="rejected">most refused</option>
            <option value="key">by key</option>
          </select>
        </label>
        <button type="button" onClick={() => void resetAll()}>
          Reset all buckets
        </button>
      </form>
      <ServerAnswer answer={answer} done="Reset" />
      <Pager page={page} offset={offset} onOffset={setOffset} held={held} />
      <BucketTable
        buckets={page?.buckets ?? []}
        open={open}
        onOpen={setOpen}
        onHold={setHeld}
        table={table}
      />
      {open === undefined ? null : <BucketDetail bucketKey={open} onReset={setAnswer} />}
    </>
  );
}

/**
 * A reset of the emulator empties every bucket: the row under the focus is gone. The focus goes
 * back to the page, which ends the hold (and the table is read again at once). Returns the ref
 * to give the table.
 */
function useFocusBackAtReset(): Ref<HTMLTableElement> {
  const table = useRef<HTMLTableElement>(null);
  const { resets } = live.value;
  useEffect(() => {
    if (table.current?.contains(document.activeElement) === true)
      document.getElementById('main')?.focus();
  }, [resets]);
  return table;
}

/**
 * The page of buckets `query` asks for, read again when `tick` or `answer` changes, and when
 * `held` ends. While `held`, nothing is read, and a read still under way is not shown (it would
 * reorder the rows under the focus); nor is a read that a later one has replaced (a search typed
 * on, a sort changed), which could come back last.
 */
function useBucketPage(
  query: { search: string; sort: string; level: string; offset: number },
  tick: number,
  answer: DevAnswer | undefined,
  held: boolean,
): BucketPage | undefined {
  const [page, setPage] = useState<BucketPage>();
  const { search, sort, level, offset } = query;
  useEffect(() => {
    if (held) return;
    let current = true;
    const params = new URLSearchParams({ sort, limit: String(PAGE_SIZE), offset: String(offset) });
    if (search !== '') params.set('search', search);
    if (level !== '') params.set('level', level);
    void devApi<BucketPage>('GET', `/buckets?${params}`).then((got) => {
      if (current && got.ok) setPage(got.body);
    });
    return () => {
      current = false;
    };
  }, [search, sort, level, offset, tick, answer, held]);
  return page;
}

/**
 * Where the page is among all buckets, and buttons to the pages around it. A button with no page
 * to go to says so (`aria-disabled`) and stays focusable: one that was disabled under the focus
 * would drop it to the body on the first page or the last.
 */
function Pager({
  page,
  offset,
  onOffset,
  held,
}: {
  page: BucketPage | undefined;
  offset: number;
  onOffset: (offset: number) => void;
  held: boolean;
}) {
  const atFirst = offset === 0;
  const atLast = page?.next_offset == null;
  return (
    <p>
      {page === undefined ? 'Reading…' : pageText(page)}
      {held ? (
        <span data-testid="buckets-held"> (held while a bucket has the focus)</span>
      ) : null}{' '}
      <button
        type="button"
        aria-disabled={atFirst}
        onClick={() => atFirst || onOffset(Math.max(0, offset - PAGE_SIZE))}
      >
        Previous page
      </button>{' '}
      <button
        type="button"
        aria-disabled={atLast}
        onClick={() => atLast || onOffset(page?.next_offset ?? offset)}
      >
        Next page
      </button>
    </p>
  );
}

/**
 * A page of buckets, each with its fill; a bucket's key opens its detail. `onHold` is told when
 * the focus comes into the table and when it leaves it; `table` is given the table's element.
 */
function BucketTable({
  buckets,
  open,
  onOpen,
  onHold,
  table,
}: {
  buckets: readonly Bucket[];
  open: string | undefined;
  onOpen: (key: string | undefined) => void;
  onHold: (hold: boolean) => void;
  table: Ref<HTMLTableElement>;
}) {
  return (
    <table
      ref={table}
      data-testid="bucket-table"
      onFocusIn={() => onHold(true)}
      onFocusOut={(event) => {
        const to = event.relatedTarget;
        if (!(to instanceof Node && event.currentTarget.contains(to))) onHold(false);
      }}
    >
      <thead>
        <tr>
          <th scope="col">Bucket</th>
          <th scope="col">Fill</th>
          <th scope="col">Tokens</th>
          <th scope="col">Rate</th>
          <th scope="col">Next token</th>
          <th scope="col">Allowed</th>
          <th scope="col">Refused</th>
        </tr>
      </thead>
      <tbody>
        {buckets.map((bucket) => (
          <tr key={bucket.key}>
            <td>
              <button
                type="button"
                class="link"
                aria-expanded={open === bucket.key}
                onClick={() => onOpen(open === bucket.key ? undefined : bucket.key)}
              >
                {oneLine(bucket.key)}
              </button>
            </td>
            <td>
              <meter
                min={0}
                max={bucket.burst}
                value={bucket.tokens}
                aria-label={`${oneLine(bucket.key)} fill`}
              />{' '}
              {fillPercent(bucket.tokens, bucket.burst)}%
            </td>
            <td>
              {bucket.remaining} / {bucket.burst}
            </td>
            <td>{bucket.rate}</td>
            <td>{bucket.next_token_ms === 0 ? 'now' : formatDuration(bucket.next_token_ms)}</td>
            <td>{formatCount(bucket.allowed)}</td>
            <td>{formatCount(bucket.rejected)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** One bucket: its state, its recent requests, and a button to fill it again. */
function BucketDetail({
  bucketKey,
  onReset,
}: {
  bucketKey: string;
  onReset: (answer: DevAnswer) => void;
}) {
  const recent = live.value.requests
    .filter((request) => request.bucket === bucketKey)
    .slice(-20)
    .reverse();
  return (
    <section class="panel" aria-label={`Bucket ${oneLine(bucketKey)}`} data-testid="bucket-detail">
      <h2>{oneLine(bucketKey)}</h2>
      <button
        type="button"
        onClick={async () =>
          onReset(await devApi('DELETE', `/buckets/${encodeURIComponent(bucketKey)}`))
        }
      >
        Reset this bucket
      </button>
      <h3>Recent requests</h3>
      <ul>
        {recent.map((request) => (
          <li key={request.id}>
            <a href={href('requests', { id: String(request.id) })}>
              #{request.id} {formatClock(request.at)} {oneLine(request.method)}{' '}
              {oneLine(request.path)} — {outcomeLabel(request.status, request.outcome)}
            </a>
          </li>
        ))}
        {recent.length === 0 ? (
          <li>
            None among the requests this page holds (the journal's, and those since it opened).
          </li>
        ) : null}
      </ul>
    </section>
  );
}

/** Where a page of buckets is among all: "120 buckets; showing 51–100", or why it shows none. */
function pageText({ total, offset, buckets }: BucketPage): string {
  if (total === 0) return 'No buckets';
  const count = `${formatCount(total)} ${total === 1 ? 'bucket' : 'buckets'}`;
  return buckets.length === 0
    ? `${count}; none from ${formatCount(offset + 1)} on (Previous page goes back)`
    : `${count}; showing ${offset + 1}–${offset + buckets.length}`;
}
