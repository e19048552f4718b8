import { andThen, type MaybePromise } from '../async/maybe-promise.js';
import { applyConfigPatch, phoneIssues, type ResolvedConfig } from '../config/config.js';
import { ConfigError, configIssue } from '../config/config-error.js';
import { describeIssues, userSchema, type ConfigFile } from '../config/config-schema.js';
import { list } from '../config/schema-kit.js';
import { NO_PAST, readPastPolicies, type PastPolicies } from '../limits/past-policies.js';
import { createState, useConfig, type EmulatorState } from '../service/emulator-state.js';
import {
  StoreUnavailableError,
  type SendOutcome,
  type SharedChange,
} from '../store/emulator-store.js';
import { isKeptClock, isManualClock, type Clock } from '../time/clock.js';
import type { Announcer } from './admin.js';
import { MAX_USERS, USERS_PER_REQUEST_MAX } from './dev-api-bounds.js';
import { changeLimitsAt, pastPoliciesOf, withPastPolicies } from './live-limits.js';

const usersSchema = list(userSchema, 0, USERS_PER_REQUEST_MAX, 'users at once');

/** Past limits of a change that came without them (or with some that do not fit): none. */
const NO_PAST_AT_ALL: PastPolicies = { client: NO_PAST, caller: NO_PAST };

/** What live changes act on. */
interface ChangeContext {
  readonly state: EmulatorState;
  readonly clock: Clock;
  readonly events: Announcer;
  readonly initialConfig: ResolvedConfig;
  /**
   * Where a reset takes the clock: for a clock shared by instances, where it started for all (an
   * instance that joined later would otherwise take the others back to its own start).
   */
  readonly startedAt: number;
  /**
   * This instance's own changes in turn (see inTurn): the last one under way, settled, with the
   * store's failure when the store failed it.
   */
  turn: Promise<StoreUnavailableError | undefined> | undefined;
}

/** A user removed: its e-mail as the emulator held it, and how many of its codes were dropped. */
export interface UserRemoved {
  removed: string;
  codes: number;
}

/** The changes an emulator's admin surface makes, and applies from other instances. */
export interface LiveChanges {
  configure(patch: unknown): MaybePromise<ResolvedConfig>;
  addUsers(users: unknown): MaybePromise<{ added: number; replaced: number }>;
  removeUser(email: unknown): MaybePromise<UserRemoved | undefined>;
  reset(): MaybePromise<void>;
  /** Applies a change another instance sharing the store made. */
  hear(change: SharedChange): void;
}

/**
 * The live changes of an emulator: a change made here is applied here first, then sent to the
 * instances sharing its store (kept there first when the store holds it, so a change the store
 * cannot keep is made nowhere).
 */
export function createLiveChanges(
  state: EmulatorState,
  clock: Clock,
  events: Announcer,
  initialConfig: ResolvedConfig,
): LiveChanges {
  const context: ChangeContext = {
    state,
    clock,
    events,
    initialConfig,
    startedAt: isKeptClock(clock) ? clock.startMs : clock.now(),
    turn: undefined,
  };
  return {
    configure: (patch) => inTurn(context, () => configure(context, patch)),
    addUsers: (users) => inTurn(context, () => addUsers(context, users)),
    removeUser: (email) => inTurn(context, () => removeUser(context, email)),
    reset: () =>
      andThen(state.store.clear(), () => {
        restart(context);
        send(context, { type: 'reset' });
      }),
    hear: (change) => hear(context, change),
  };
}

const send = ({ state }: ChangeContext, change: SharedChange) => state.store.channel?.send(change);

/**
 * Sends a config or users change and applies it here: when the store keeps it, in its place
 * among the changes of other instances (a shared store calls `apply` then), or at once when
 * there is no other instance.
 */
function sendAndApply(
  { state }: ChangeContext,
  change: SharedChange,
  apply: () => void,
): MaybePromise<SendOutcome> {
  const { channel } = state.store;
  if (channel !== undefined) return channel.send(change, apply);
  apply();
  return undefined;
}

/**
 * Runs this instance's own changes of the config and users one after another when they go
 * through a shared store (a memory store makes them at once). Sent together, each would be made
 * on the state the others found, all but the first kept would be stale, and each made again:
 * more than MOST_TRIES of them at once, and the last would be refused (503) though no other
 * instance changed anything. In turn, each is made on the state the one before left, and is
 * stale only when another instance's change came between. When the store fails one (Redis away
 * or too slow), those waiting behind it are refused with it at once, as they would have been
 * sent together, rather than each waiting out the store's timeout in turn.
 */
function inTurn<T>(context: ChangeContext, run: () => MaybePromise<T>): MaybePromise<T> {
  const before = context.turn;
  const result =
    before === undefined
      ? run()
      : before.then((failure) => (failure === undefined ? run() : Promise.reject(failure)));
  if (!(result instanceof Promise)) return result;
  const settled = result.then(
    () => undefined,
    (error: unknown) =>
      error instanceof StoreUnavailableError && !(error instanceof OutpacedError)
        ? error
        : undefined,
  );
  context.turn = settled;
  void settled.then(() => {
    if (context.turn === settled) context.turn = undefined;
  });
  return result;
}

/**
 * The most times a change is made again on another instance's, kept first (each time, a change
 * of another instance was kept in the moment between).
 */
const MOST_TRIES = 8;

/**
 * A change given up after MOST_TRIES: the store answers, but other instances' changes kept
 * coming first. Those of this instance waiting behind it are still sent.
 */
class OutpacedError extends StoreUnavailableError {
  override readonly answered = true;
}

/** Another try of a change that another instance's, kept first, made stale; or the end of them. */
function again<T>(tries: number, what: string, retry: (tries: number) => T): T {
  if (tries >= MOST_TRIES)
    throw new OutpacedError(`it kept another instance's ${what} first, ${tries} times in a row`);
  return retry(tries + 1);
}

function configure(
  context: ChangeContext,
  patch: unknown,
  tries = 1,
): MaybePromise<ResolvedConfig> {
  const { state, clock } = context;
  // A patch that does not apply is refused before the store is asked anything.
  applyConfigPatch(state.config.source, patch);
  // Dated by the store's clock, as bucket decisions are: buckets are settled at that moment.
  return andThen(state.store.now?.() ?? clock.now(), (at) => {
    // Made on the config in force now, which a change heard meanwhile may have moved.
    const next = changeLimitsAt(state.config, applyConfigPatch(state.config.source, patch), at);
    const change = { type: 'config', live: liveParts(next), past: pastPoliciesOf(next) } as const;
    return andThen(
      sendAndApply(context, change, () => applyConfig(context, next)),
      (outcome) => {
        if (outcome === 'stale')
          return again(tries, 'change of the config', (more) => configure(context, patch, more));
        // Superseded (a later change, heard first, is in force here already): the answer is
        // still the state this change left, as kept, not what came after it.
        return next;
      },
    );
  });
}

function addUsers(
  context: ChangeContext,
  users: unknown,
  tries = 1,
  caughtUp = false,
): MaybePromise<{ added: number; replaced: number }> {
  const parsed = usersSchema.safeParse(users, { reportInput: true });
  if (!parsed.success) throw new ConfigError(describeIssues(parsed.error, usersSchema));
  // Checked on the users the change is made on: a change kept on others is made again.
  try {
    checkRoom(context.state, parsed.data);
    checkBatch(context.state, parsed.data);
  } catch (error) {
    // Refused on users another instance may have changed a moment ago (a number given up, a
    // user removed): checked again once this instance has read what the store keeps.
    if (caughtUp || !(error instanceof ConfigError)) throw error;
    return afterCatchUp(context, error, () => addUsers(context, users, tries, true));
  }
  // Counted on the users the change is made on (the store keeps it only on them), not when it
  // is applied: one kept while a reset came here is applied only as read back from the store.
  const { directory } = context.state;
  const replaced = parsed.data.filter((user) => directory.hasUser(user.email)).length;
  const counts = { added: parsed.data.length - replaced, replaced };
  const change = { type: 'users', users: parsed.data } as const;
  return andThen(
    sendAndApply(context, change, () => {
      context.state.directory.addUsers(parsed.data);
      announceUsers(context.events.all, parsed.data.length, undefined);
    }),
    (outcome) =>
      outcome === 'stale'
        ? again(tries, 'change of users', (more) => addUsers(context, users, more))
        : counts,
  );
}

/**
 * Removes a user (undefined when none has the e-mail; a ConfigError when it is no e-mail): drops
 * its codes, so that a user added again later does not find them, then keeps the removal in the
 * store and sends it, as users added are. When the store fails, it rejects and the user stays
 * (a pending code may be gone). A removed user cannot sign in: start answers user-not-found,
 * verify code-not-found (it checks the directory too, for a code another instance issued before
 * it heard of the removal).
 */
function removeUser(
  context: ChangeContext,
  email: unknown,
  tries = 1,
  caughtUp = false,
): MaybePromise<UserRemoved | undefined> {
  const parsed = userSchema.shape.email.safeParse(email, { reportInput: true });
  if (!parsed.success)
    throw new ConfigError(describeIssues(parsed.error, userSchema.shape.email), 'invalid e-mail');
  const { state } = context;
  const user = state.directory.userByEmail(parsed.data);
  // Perhaps added on another instance a moment ago: looked for again once this instance has
  // read what the store keeps.
  if (user === undefined)
    return caughtUp
      ? undefined
      : afterCatchUp(context, undefined, () => removeUser(context, email, tries, true));
  const merchants = state.config.clients.flatMap((client) => client.merchants);
  const change = { type: 'remove-user', email: user.email } as const;
  return andThen(state.store.codes.forget(user.email, merchants), (codes) =>
    andThen(
      sendAndApply(context, change, () => {
        state.directory.removeUser(user.email);
        announceUsers(context.events.all, 0, user.email);
      }),
      (outcome) =>
        outcome === 'stale'
          ? again(tries, 'change of users', (more) => removeUser(context, email, more))
          : { removed: user.email, codes },
    ),
  );
}

/**
 * `retry` once this instance has applied the changes of users the store keeps past those it has;
 * without a store that keeps them (the memory store), or when the store cannot be read, the
 * refusal as it stands: `refused` thrown when an error, answered when not.
 */
function afterCatchUp<T>(
  { state }: ChangeContext,
  refused: ConfigError | T,
  retry: () => MaybePromise<T>,
): MaybePromise<T> {
  const catchUp = state.store.channel?.catchUpUsers;
  const refuse = () => {
    if (refused instanceof ConfigError) throw refused;
    return refused;
  };
  if (catchUp === undefined) return refuse();
  return catchUp().then(retry, refuse);
}

/**
 * Applies a change another instance made. What it sends was checked there; it is checked
 * again here (the store is shared with whatever else can write to it), and what does not fit
 * is left out rather than applied in part.
 */
function hear(context: ChangeContext, change: SharedChange): void {
  const { state, events } = context;
  switch (change.type) {
    case 'config': {
      const next = applyConfigPatch(state.config.source, change.live);
      const past = readPastPolicies(change.past) ?? NO_PAST_AT_ALL;
      applyConfig(context, withPastPolicies(next, past), events.here);
      return;
    }
    case 'users': {
      const parsed = usersSchema.safeParse(change.users);
      // Checked on the users here, which every instance has alike at this place in the order of
      // changes: one made on users a reset had already let go (its instance had not heard of
      // the reset yet) may take a phone number a user of the config has again, and is left out
      // on every instance, as one past the most users is.
      if (parsed.success && fits(state, parsed.data)) {
        state.directory.addUsers(parsed.data);
        announceUsers(change.own ? events.all : events.here, parsed.data.length, undefined);
      }
      return;
    }
    case 'remove-user':
      if (typeof change.email === 'string' && state.directory.removeUser(change.email))
        announceUsers(change.own ? events.all : events.here, 0, change.email);
      return;
    case 'reset':
      restart(context, events.here);
      return;
    case 'event':
      return; // the emulator hands these to its event readers
  }
}

/**
 * Tells of users changed live (none for `{"users": []}`), so that readers (the dashboard) read again
 * what they show; one heard from another instance only to this one's listeners (it told readers).
 */
function announceUsers(to: Announcer['here'], added: number, removed: string | undefined): void {
  if (to.active && (added > 0 || removed !== undefined)) to.emit({ type: 'users', added, removed });
}

function applyConfig(
  { state, events }: ChangeContext,
  next: ResolvedConfig,
  to: Announcer['here'] = events.all,
): void {
  useConfig(state, next);
  if (to.active)
    to.emit({
      type: 'config',
      limits: next.source.limits,
      behavior: next.source.behavior,
      otp: next.source.otp,
    });
}

/**
 * Throws when a user is given twice in one batch (its e-mail in any case), as the config file
 * refuses, or would take a phone number another user has (see `phoneIssues`).
 */
function checkBatch({ directory }: EmulatorState, users: ConfigFile['users']): void {
  const seen = new Set<string>();
  const twice = users.flatMap(({ email }, index) => {
    const key = email.toLowerCase();
    const again = seen.has(key);
    seen.add(key);
    return again ? [configIssue([index, 'email'], `${JSON.stringify(email)} appears twice`)] : [];
  });
  const issues = [
    ...twice,
    ...phoneIssues(users, [], (phone) => directory.userByPhone(phone)?.email),
  ];
  if (issues.length > 0) throw new ConfigError(issues);
}

/** Whether users heard from another instance may be added to those here (see checkBatch). */
function fits(state: EmulatorState, users: ConfigFile['users']): boolean {
  try {
    checkRoom(state, users);
    checkBatch(state, users);
    return true;
  } catch (error) {
    if (error instanceof ConfigError) return false;
    throw error;
  }
}

/** Throws when users already checked would pass the most an emulator holds. */
function checkRoom({ directory }: EmulatorState, users: ConfigFile['users']): void {
  const fresh = new Set(
    users.map((user) => user.email.toLowerCase()).filter((email) => !directory.hasUser(email)),
  ).size;
  if (directory.users + fresh > MAX_USERS)
    throw new ConfigError([
      configIssue(
        [],
        `the emulator holds at most ${MAX_USERS} users; it has ${directory.users}, and these would add ${fresh}`,
      ),
    ]);
}

/** Back to the start, but for the store (which the instance that was reset clears). */
function restart(context: ChangeContext, to: Announcer['here'] = context.events.all): void {
  const { state, clock, initialConfig } = context;
  Object.assign(state, createState(initialConfig, state.store));
  state.store.useConfig(initialConfig);
  if (isManualClock(clock)) clock.set(context.startedAt);
  if (to.active) to.emit({ type: 'reset', bucket: undefined, emulator: true });
}

/** The parts of a config a live change can make, whole: what instances sharing a store send. */
function liveParts(config: ResolvedConfig): Pick<ConfigFile, 'limits' | 'behavior' | 'otp'> {
  const { limits, behavior, otp } = config.source;
  return { limits, behavior, otp };
}
