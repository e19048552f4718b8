import type { ServerResponse } from 'node:http';
import type { ConnectionState } from './connection-state.js';

/**
 * Runs `answer` (an answer outside of any request: a parse error, CONNECT) after the answers the
 * connection still owes, in order: those of the requests read whole before it. Node keeps them on
 * the socket, the one being written as `_httpMessage` and the rest queued behind it, each taking
 * its place when the one before is written; so the wait follows `_httpMessage` until it is empty,
 * or is a request still sending its body (the one this answer is about). Asked only when a parse
 * error or CONNECT comes, so it costs requests nothing. Once per connection: the parser reports
 * its error again when the client closes its side.
 */
export function afterAnswers(connection: ConnectionState, answer: () => void): void {
  const { socket } = connection;
  if (socket.destroyed || connection.answeredAlone) return;
  connection.answeredAlone = true;
  const owed = () => {
    const current = (socket as typeof socket & { _httpMessage?: ServerResponse | null })
      ._httpMessage;
    // A request still sending its body is the one the error is about; one whose body has
    // come whole (its end not yet emitted) is owed its answer.
    return current == null || (connection.readingBody === current.req && !current.req.complete)
      ? undefined
      : current;
  };
  if (owed() === undefined) {
    answer();
    return;
  }
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    answer();
  };
  // A client that has closed its side has its connection ended as soon as its last answer is
  // out (Node's destroySoon, called before that answer's close): this answer goes out first.
  const destroySoon = socket.destroySoon;
  socket.destroySoon = () => {
    socket.destroySoon = destroySoon;
    if (done) destroySoon.call(socket);
    else once();
  };
  const wait = () => {
    if (done || socket.destroyed) return;
    const current = owed();
    if (current === undefined) once();
    else current.once('close', wait);
  };
  wait();
}
