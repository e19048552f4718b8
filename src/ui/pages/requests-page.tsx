/** @jsxImportSource preact */
import { useMemo, useState } from 'preact/hooks';
import type { RequestRecord } from '../../core/records/records.js';
import { formatClock, formatCount, oneLine, outcomeLabel, statusKind } from '../format.js';
import { live } from '../live.js';
import { RequestDetail } from '../parts/request-detail.js';
import { VirtualList } from '../parts/virtual-list.js';
import {
  filterRequests,
  NO_FILTER,
  STATUS_CHOICES,
  type RequestFilter,
} from '../request-filter.js';
import { href, route } from '../route.js';

const ROW_HEIGHT = 28;

/** The journal as a virtualised list (newest first), with filters and a detail pane. */
export function RequestsPage() {
  const [filter, setFilter] = useState<RequestFilter>(NO_FILTER);
  const requests = live.value.requests;
  const shown = useMemo(() => filterRequests(requests, filter).reverse(), [requests, filter]);
  const selected = Number(route.value.params.get('id') ?? NaN);
  const record = requests.find((request) => request.id === selected);
  return (
    <div class="split">
      <section aria-label="Request list">
        <RequestFilters filter={filter} onChange={setFilter} />
        <p data-testid="request-count">
          {formatCount(shown.length)} of {formatCount(requests.length)}{' '}
          {requests.length === 1 ? 'request' : 'requests'}
        </p>
        <VirtualList
          items={shown}
          rowHeight={ROW_HEIGHT}
          height={560}
          label="Requests, newest first"
          keyOf={(request: RequestRecord) => request.id}
          row={(request: RequestRecord) => (
            <li key={request.id} class={request.id === selected ? 'row selected' : 'row'}>
              <a
                href={href('requests', { id: String(request.id) })}
                tabIndex={-1}
                aria-current={request.id === selected ? 'true' : undefined}
                data-testid="request-row"
              >
                <span class="mono">#{request.id}</span>{' '}
                <span class="mono">{formatClock(request.at)}</span>{' '}
                <span class={`badge ${statusKind(request.status)}`}>
                  {outcomeLabel(request.status, request.outcome)}
                </span>{' '}
                {oneLine(request.operation ?? request.method)}{' '}
                {request.email === undefined ? '' : oneLine(request.email)}{' '}
                <span class="dim">
                  {request.bucket === undefined ? '' : oneLine(request.bucket)}
                </span>
              </a>
            </li>
          )}
        />
      </section>
      <section aria-label="Request detail" class="detail">
        {record === undefined ? (
          <p>Choose a request to see where its caller_id was, its bucket and its answer.</p>
        ) : (
          <RequestDetail record={record} />
        )}
      </section>
    </div>
  );
}

/** The filters of the list: each narrows it as it is typed. */
function RequestFilters({
  filter,
  onChange,
}: {
  filter: RequestFilter;
  onChange: (filter: RequestFilter) => void;
}) {
  const field = (name: keyof RequestFilter, label: string) => (
    <label>
      {label}{' '}
      <input
        type="search"
        value={filter[name]}
        data-testid={`filter-${name}`}
        onInput={(event) => onChange({ ...filter, [name]: event.currentTarget.value })}
      />
    </label>
  );
  return (
    <form class="filters" onSubmit={(event) => event.preventDefault()}>
      <label>
        Operation{' '}
        <select
          value={filter.operation}
          onChange={(event) => onChange({ ...filter, operation: event.currentTarget.value })}
        >
          <option value="">any</option>
          <option value="exists">exists</option>
          <option value="start">start</option>
          <option value="verify">verify</option>
        </select>
      </label>
      <label>
        Status{' '}
        <select
          value={filter.status}
          onChange={(event) => onChange({ ...filter, status: event.currentTarget.value })}
        >
          {STATUS_CHOICES.map((choice) => (
            <option key={choice.value} value={choice.value}>
              {choice.label}
            </option>
          ))}
        </select>
      </label>
      {field('bucket', 'Bucket')}
      {field('callerId', 'caller_id')}
      {field('email', 'E-mail')}
      {field('text', 'Text')}
    </form>
  );
}
