import { setMaxListeners } from 'node:events';
import type { Server, ServerResponse } from 'node:http';
import type { ConnectionState } from './connection-state.js';
import { CLIENT_GONE } from './transport-exchange.js';

/**
 * What a transport's server keeps for its shutdown: whether it is closing, the requests waiting
 * on a delay or an engine (answered at once when it closes), and the event streams open (ended
 * when it closes).
 */
export class TransportShutdown {
  /** The server is shutting down: answers close their connections after the last request. */
  closing = false;
  /**
   * The grace for answers in flight ran out: the connections still open are being closed, and an
   * answer cut now was cut by the shutdown, not by its client.
   */
  cutting = false;
  /** Requests waiting on a delay or an engine: aborted at shutdown so they answer at once. */
  private readonly waiting = new Set<AbortController>();
  /** The functions that end the event streams open. */
  private readonly streams = new Set<() => void>();
  /**
   * Aborted when the grace for requests in flight runs out: what still waits then (a request the
   * real service has not answered) stops waiting, and is journaled as cut by the shutdown.
   */
  readonly graceOver = graceController();
  /**
   * Exchanges with an engine not yet journaled: requests it has not answered, and answers relayed
   * from the real service that have not heard how they ended.
   */
  private held = 0;
  /** Called once the last of {@link held} is released, when the server has closed before. */
  private released: (() => void) | undefined = undefined;

  /**
   * Counts an exchange until the function returned is called (once it is journaled): the
   * server's close waits for it, so that one cut when the grace runs out is journaled before the
   * close resolves (the recording stops after).
   */
  hold(): () => void {
    this.held++;
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.held--;
      if (this.held === 0) this.released?.();
    };
  }

  /** An abort controller for a request that waits, aborted when its client goes or at shutdown. */
  track(res: ServerResponse): AbortController {
    const controller = new AbortController();
    if (this.closing) controller.abort();
    this.waiting.add(controller);
    res.on('close', () => {
      if (!res.writableEnded) controller.abort(CLIENT_GONE);
      this.waiting.delete(controller);
    });
    return controller;
  }

  /**
   * Whether the client of `res` has left before its answer was written out: its connection
   * closed before the grace at shutdown ran out (uas closes the connections itself then). Unlike
   * the reason of {@link track}'s signal, this holds for a client that leaves during the grace.
   */
  clientLeft(res: ServerResponse): () => boolean {
    let left = false;
    res.on('close', () => {
      if (!res.writableEnded && !this.cutting) left = true;
    });
    return () => left;
  }

  /** Forgets a request that waited, now that it is answered. */
  settle(controller: AbortController): void {
    this.waiting.delete(controller);
  }

  /** Keeps the function that ends an event stream, until the stream's answer closes. */
  holdStream(res: ServerResponse, end: () => void): void {
    this.streams.add(end);
    res.on('close', () => this.streams.delete(end));
  }

  /**
   * Whether an answer closes its connection: when asked (`close`), and at shutdown when it answers
   * the last request read on the connection, so that pipelined requests waiting on a latency all
   * get theirs first. A connection to be closed runs no request read after.
   */
  closes(connection: ConnectionState, res: ServerResponse, close: boolean | undefined): boolean {
    const last = connection.lastAnswer;
    if (close === true || (this.closing && last === res)) {
      connection.closingAfter = true;
      return true;
    }
    // At shutdown, the answer to the last request was given before (kept alive, or an event
    // stream just ended): the connection ends once that answer is out.
    if (this.closing && last !== undefined && last.writableEnded && !connection.closingAfter) {
      connection.closingAfter = true;
      last.once('finish', () => connection.socket.destroySoon());
    }
    return false;
  }

  /**
   * Stops accepting connections; answers waiting on a delay are sent at once, event streams end,
   * in-flight requests finish; connections still open after `graceMs` are closed.
   */
  close(server: Server, graceMs: number): Promise<void> {
    return new Promise((resolve) => {
      this.closing = true;
      for (const controller of this.waiting) controller.abort();
      for (const end of this.streams) end();
      let closed = false;
      let giveUp: NodeJS.Timeout | undefined;
      const finish = () => {
        clearTimeout(timer);
        clearTimeout(giveUp);
        resolve();
      };
      // A close never waits for good on an exchange not yet journaled: at most a second once
      // the grace has run out and the connections are closed.
      const waitAtMostASecond = () => {
        giveUp = setTimeout(finish, 1_000);
      };
      // Not unref'd: a connection whose socket Node no longer counts as keeping the process
      // alive (a paused one) must still be closed, and the promise settled.
      const timer = setTimeout(() => {
        this.cutting = true;
        this.graceOver.abort();
        server.closeAllConnections();
        if (closed) waitAtMostASecond();
      }, graceMs);
      server.close(() => {
        closed = true;
        // Its connections are closed, but a relayed answer hears so as its socket closes, and a
        // request cut while it waited is journaled as it stops, which may come after: the close
        // waits for them. A request whose client left before (no connection kept the server
        // open) may still wait for the real service: the grace still runs for it, and it is
        // journaled as it stops then, not lost.
        if (this.held === 0) finish();
        else {
          this.released = finish;
          if (this.cutting) waitAtMostASecond();
        }
      });
      server.closeIdleConnections();
    });
  }
}

/**
 * The controller of {@link TransportShutdown.graceOver}: every request waiting on the real
 * service listens to its signal, each until it is answered, so it may have any number of
 * listeners (Node warns of a leak past ten by default).
 */
function graceController(): AbortController {
  const controller = new AbortController();
  setMaxListeners(0, controller.signal);
  return controller;
}
