import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/**
 * Everything the transport keeps about one connection, from when it opens until it closes: one
 * record per socket, reached with {@link connectionOf}.
 */
export class ConnectionState {
  /** The answer to the last request read on it: at shutdown, the one that closes it. */
  lastAnswer: ServerResponse | undefined = undefined;
  /**
   * The request whose body is arriving: answered only once its body is read, so a parse error
   * in the body cannot wait for its answer.
   */
  readingBody: IncomingMessage | undefined = undefined;
  /** Requests read behind {@link readingBody}: they run after it, in order. */
  behind: Array<() => void> | undefined = undefined;
  /** The engine's last request on it: the next one runs once it is answered. */
  engineTurn: Promise<void> | undefined = undefined;
  /** Answered outside of any request (a parse error, CONNECT): ended after that answer. */
  answeredAlone = false;
  /**
   * Its answer that closes it is written or decided (a refusal, a body over the limit, the last
   * answer at shutdown): requests read after it are not run, since nobody will take their answers.
   */
  closingAfter = false;
  /** It carries an event stream (one at most). */
  streaming = false;
  /** A request read on it was not run (behind a stream, or a closing answer). */
  skipped = false;
  /** Bytes of answers queued behind others on it and not yet written. */
  queuedBytes = 0;
  /**
   * The stall timers of its queued answers, cleared when it closes (a timer would otherwise keep
   * the closed connection, and the answers queued on it, in memory until it fired); undefined
   * until an answer is queued on it.
   */
  stallTimers: Set<NodeJS.Timeout> | undefined = undefined;
  /**
   * It has closed, with answers queued on it (set only once one was): those still queued will
   * never be written (nor finish).
   */
  closed = false;

  /**
   * An answer relayed on it broke off because the real service cut it short (`uas serve
   * --upstream`), and uas closed the connection: the answers queued behind it were cut by that.
   */
  relayCut = false;

  /** What is told when it closes (see {@link onClose}); undefined until something asks. */
  private closeHooks: Set<() => void> | undefined = undefined;

  constructor(readonly socket: Socket) {}

  /**
   * Calls `hook` when it closes (at once when it has): Node tells an answer queued behind another
   * nothing then, neither `close` nor `finish`. Returns the function that forgets the hook.
   */
  onClose(hook: () => void): () => void {
    if (this.socket.destroyed) {
      hook();
      return () => {};
    }
    if (this.closeHooks === undefined) {
      const hooks = new Set<() => void>();
      this.closeHooks = hooks;
      this.socket.once('close', () => {
        for (const told of [...hooks]) told();
        hooks.clear();
      });
    }
    const hooks = this.closeHooks;
    hooks.add(hook);
    return () => hooks.delete(hook);
  }

  /**
   * Whether a request read on it may run: not when nobody can take its answer, because it was
   * closed (too many answers queued), an answer before it closes it, or an event stream before
   * it never ends.
   */
  runnable(): boolean {
    return !this.socket.destroyed && !this.closingAfter && !this.streaming;
  }
}

const connections = new WeakMap<Socket, ConnectionState>();

/** The state of a socket's connection, made on first use (when it opens, for a transport's). */
export function connectionOf(socket: Socket): ConnectionState {
  let state = connections.get(socket);
  if (state === undefined) {
    state = new ConnectionState(socket);
    connections.set(socket, state);
  }
  return state;
}
