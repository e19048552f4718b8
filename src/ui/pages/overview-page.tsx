/** @jsxImportSource preact */
import { formatCount, oneLine } from '../format.js';
import { health, live } from '../live.js';
import { useClock } from '../parts/use-clock.js';
import { busiestBuckets, seriesColumns } from '../live-state.js';
import { RateChart } from '../parts/rate-chart.js';
import { href } from '../route.js';

/** Traffic over time, allowed vs refused per level, the busiest buckets, store and clock. */
export function OverviewPage() {
  const state = live.value;
  const clock = useClock();
  const now = Math.floor((clock?.now_ms ?? Date.now()) / 1000);
  const columns = seriesColumns(state.series, Math.max(now, state.series.at(-1)?.[0] ?? now));
  const total = state.total;
  return (
    <>
      <section aria-labelledby="traffic">
        <h2 id="traffic">Traffic</h2>
        <p data-testid="total-requests">
          {formatCount(total)} {total === 1 ? 'request' : 'requests'} seen,{' '}
          {formatCount(state.levels.client.refused + state.levels.caller.refused)} refused (429)
        </p>
        <p class="dim">
          Since this page opened (or the last reset), with the requests this server's journal held
          then; from every instance sharing its store. A request neither allowed nor refused
          (invalid, unauthenticated, a fault) counts in the total only.
        </p>
        <RateChart columns={columns} />
      </section>
      <section aria-labelledby="levels">
        <h2 id="levels">Allowed and refused per level</h2>
        <table>
          <thead>
            <tr>
              <th scope="col">Level</th>
              <th scope="col">Allowed</th>
              <th scope="col">Refused (429)</th>
            </tr>
          </thead>
          <tbody>
            {(['client', 'caller'] as const).map((level) => (
              <tr key={level}>
                <th scope="row">
                  {level === 'client' ? 'client (no caller_id)' : 'caller (per caller_id)'}
                </th>
                <td data-testid={`${level}-allowed`}>{formatCount(state.levels[level].allowed)}</td>
                <td data-testid={`${level}-refused`}>{formatCount(state.levels[level].refused)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <section aria-labelledby="busiest">
        <h2 id="busiest">Busiest buckets</h2>
        <table>
          <thead>
            <tr>
              <th scope="col">Bucket</th>
              <th scope="col">Allowed</th>
              <th scope="col">Refused</th>
            </tr>
          </thead>
          <tbody>
            {busiestBuckets(state.buckets, 8).map((bucket) => (
              <tr key={bucket.key}>
                <td>
                  {/* Behind --upstream, the real service names the bucket: escaped. */}
                  <a href={href('buckets', { search: bucket.key, open: bucket.key })}>
                    {oneLine(bucket.key)}
                  </a>
                </td>
                <td>{formatCount(bucket.allowed)}</td>
                <td>{formatCount(bucket.refused)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <ServerFacts instances={state.instances.size} clock={clock} />
    </>
  );
}

/** The store, the instances answering and the clock. */
function ServerFacts({
  instances,
  clock,
}: {
  instances: number;
  clock: { mode: string; now: string } | undefined;
}) {
  return (
    <section aria-labelledby="server">
      <h2 id="server">Server</h2>
      <dl class="facts">
        <dt>Store</dt>
        <dd data-testid="store">{health.value?.store ?? '…'}</dd>
        <dt>Instances answering</dt>
        <dd>
          {instances + 1} (this one
          {instances === 0 ? '' : ` and ${instances} sharing its store`})
        </dd>
        <dt>Clock</dt>
        <dd data-testid="clock">{clock === undefined ? '…' : `${clock.mode}, at ${clock.now}`}</dd>
      </dl>
    </section>
  );
}
