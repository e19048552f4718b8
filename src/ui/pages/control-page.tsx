/** @jsxImportSource preact */
import { useEffect, useState } from 'preact/hooks';
import { devApi, type DevAnswer } from '../dev-api.js';
import { ConfigForm } from '../parts/config-form.js';
import { ServerAnswer } from '../parts/server-answer.js';
import { useRefresh } from '../parts/use-refresh.js';
import { oneLine } from '../format.js';
import { live } from '../live.js';
import { withoutCodesOf } from '../live-state.js';
import {
  replaceQuestion,
  userCall,
  userChangeText,
  usersShownText,
  type ShownUser,
  type UserAction,
  type UserFields,
} from '../user-change.js';

/**
 * Faults, the manual clock, users and reset: each through the dev API, its answer shown, and
 * read again after a reset (which brings back the faults, clock and users of the start).
 */
export function ControlPage() {
  return (
    <>
      <ConfigForm />
      <FaultForm />
      <ClockForm />
      <UsersForm />
      <ResetForm />
    </>
  );
}

function FaultForm() {
  const [operation, setOperation] = useState('start');
  const [status, setStatus] = useState('503');
  const [count, setCount] = useState('1');
  const [answer, setAnswer] = useState<DevAnswer>();
  const [faults, setFaults] = useState<unknown>();
  const resets = live.value.resets;
  // Traffic spends the faults: read again as it comes, at most once a second.
  const tick = useRefresh(1000);
  useEffect(() => {
    void devApi('GET', '/faults').then((got) => setFaults(got.body));
  }, [answer, resets, tick]);
  return (
    <form
      class="panel"
      aria-labelledby="faults"
      onSubmit={async (event) => {
        event.preventDefault();
        setAnswer(
          await devApi('POST', '/faults', {
            operation,
            status: Number(status),
            count: Number(count),
          }),
        );
      }}
    >
      <h2 id="faults">Script faults (failNext)</h2>
      <label>
        Operation{' '}
        <select value={operation} onChange={(event) => setOperation(event.currentTarget.value)}>
          <option value="exists">exists</option>
          <option value="start">start</option>
          <option value="verify">verify</option>
        </select>
      </label>{' '}
      <label>
        Status{' '}
        <input
          inputMode="numeric"
          value={status}
          onInput={(event) => setStatus(event.currentTarget.value)}
        />
      </label>{' '}
      <label>
        Count{' '}
        <input
          inputMode="numeric"
          value={count}
          onInput={(event) => setCount(event.currentTarget.value)}
        />
      </label>{' '}
      <button type="submit">Schedule</button>{' '}
      <button type="button" onClick={async () => setAnswer(await devApi('DELETE', '/faults'))}>
        Clear faults
      </button>
      <ServerAnswer answer={answer} done="Done" />
      <pre class="json">{JSON.stringify(faults, null, 1)}</pre>
    </form>
  );
}

function ClockForm() {
  const [advance, setAdvance] = useState('1000');
  const [answer, setAnswer] = useState<DevAnswer<{ mode?: string; now?: string }>>();
  const [clock, setClock] = useState<{ mode: string; now: string }>();
  const resets = live.value.resets;
  useEffect(() => {
    void devApi<{ mode: string; now: string }>('GET', '/clock').then(
      (got) => got.ok && setClock(got.body),
    );
  }, [answer, resets]);
  return (
    <form
      class="panel"
      aria-labelledby="clock-title"
      onSubmit={async (event) => {
        event.preventDefault();
        setAnswer(await devApi('POST', '/clock', { advance_ms: Number(advance) }));
      }}
    >
      <h2 id="clock-title">Clock</h2>
      <p data-testid="clock-now">
        {clock === undefined ? '…' : `${clock.mode} clock at ${clock.now}`}
      </p>
      <label>
        Advance by (ms){' '}
        <input
          inputMode="numeric"
          value={advance}
          onInput={(event) => setAdvance(event.currentTarget.value)}
        />
      </label>{' '}
      <button type="submit" disabled={clock?.mode !== 'manual'}>
        Advance the manual clock
      </button>
      {clock?.mode === 'manual' ? null : (
        <p class="dim">Start uas serve with --clock manual to move the clock.</p>
      )}
      <ServerAnswer answer={answer} done="Moved" />
    </form>
  );
}

/** The users the list shows at most (the dev API pages through them all). */
const USERS_SHOWN = 50;

interface UserPage {
  total: number;
  users: ShownUser[];
}

function UsersForm() {
  const [email, setEmail] = useState('');
  const [fields, setFields] = useState<UserFields>({ phone: '', tokens: '' });
  const [answer, setAnswer] = useState<{ action: UserAction; got: DevAnswer }>();
  const [missing, setMissing] = useState(false);
  const [list, setList] = useState<UserPage>();
  // Read again after each change made here, and after a change of users or a reset, made here or
  // elsewhere (a script, another tab, another instance).
  const { resets, userChanges } = live.value;
  useEffect(() => {
    void devApi<UserPage>('GET', `/users?limit=${USERS_SHOWN}`).then(
      (got) => got.ok && setList(got.body),
    );
  }, [answer, resets, userChanges]);
  return (
    <form
      class="panel"
      aria-labelledby="users-title"
      noValidate
      onSubmit={async (event) => {
        event.preventDefault();
        const submitter = (event as SubmitEvent).submitter as HTMLButtonElement | null;
        const action: UserAction = submitter?.value === 'remove' ? 'remove' : 'add';
        // Nothing to send: DELETE /__uas/users/ would be another route's 405.
        setMissing(email.trim() === '');
        if (email.trim() === '') return;
        if (action === 'add' && !(await mayReplace(email.trim(), fields))) return;
        const { method, path, body } = userCall(action, email.trim(), fields);
        const got = await devApi(method, path, body);
        // Its codes are dropped with it: the inbox stops showing them as live.
        if (action === 'remove' && got.ok) live.value = withoutCodesOf(live.value, email.trim());
        setAnswer({ action, got });
      }}
    >
      <h2 id="users-title">Users</h2>
      <label>
        E-mail{' '}
        <input
          type="email"
          value={email}
          onInput={(event) => setEmail(event.currentTarget.value)}
        />
      </label>{' '}
      <UserFieldInputs fields={fields} onChange={setFields} />{' '}
      <button type="submit" name="action" value="add">
        Add user
      </button>{' '}
      <button type="submit" name="action" value="remove">
        Remove user
      </button>
      <p class="dim">
        Add adds the user with that phone number (E.164, optional) and token_count, or replaces the
        one with that e-mail, after asking. Remove removes it and drops its codes: it can no longer
        sign in. A reset brings back the users of the config.
      </p>
      {missing ? (
        <p class="answer error" role="alert">
          ✗ Enter the e-mail of the user to add or remove.
        </p>
      ) : null}
      <ServerAnswer
        answer={missing ? undefined : answer?.got}
        done={answer === undefined ? '' : userChangeText(answer.action, answer.got)}
      />
      {list === undefined ? null : <UserList page={list} />}
    </form>
  );
}

/** The phone number and token_count of a user to add. */
function UserFieldInputs({
  fields,
  onChange,
}: {
  fields: UserFields;
  onChange: (fields: UserFields) => void;
}) {
  return (
    <>
      <label>
        Phone number{' '}
        <input
          type="tel"
          value={fields.phone}
          placeholder="none"
          onInput={(event) => onChange({ ...fields, phone: event.currentTarget.value })}
        />
      </label>{' '}
      <label>
        token_count{' '}
        <input
          inputMode="numeric"
          value={fields.tokens}
          placeholder="0"
          onInput={(event) => onChange({ ...fields, tokens: event.currentTarget.value })}
        />
      </label>
    </>
  );
}

/** Whether Add may go on: no user has the e-mail, or the person says to replace it. */
async function mayReplace(email: string, fields: UserFields): Promise<boolean> {
  const got = await devApi<UserPage>('GET', `/users?email=${encodeURIComponent(email)}`);
  const existing = got.ok ? got.body.users[0] : undefined;
  return existing === undefined || confirm(replaceQuestion(existing, fields));
}

/** The first users the emulator has now: those of the config, then those added live. */
function UserList({ page }: { page: UserPage }) {
  return (
    <>
      <p data-testid="user-count">{usersShownText(page.total, page.users.length)}</p>
      <table data-testid="user-table">
        <thead>
          <tr>
            <th scope="col">E-mail</th>
            <th scope="col">Phone number</th>
            <th scope="col">token_count</th>
          </tr>
        </thead>
        <tbody>
          {page.users.map((user) => (
            <tr key={user.email}>
              <td>{oneLine(user.email)}</td>
              <td>{user.phone_number === undefined ? '—' : oneLine(user.phone_number)}</td>
              <td>{user.token_count}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

function ResetForm() {
  const [answer, setAnswer] = useState<DevAnswer>();
  return (
    <form
      class="panel"
      aria-labelledby="reset-title"
      onSubmit={async (event) => {
        event.preventDefault();
        if (confirm('Reset the emulator: buckets, codes, journal, users, config and faults?'))
          setAnswer(await devApi('POST', '/reset'));
      }}
    >
      <h2 id="reset-title">Reset</h2>
      <button type="submit">Reset the emulator</button>
      <ServerAnswer answer={answer} done="Reset" />
    </form>
  );
}
