import { Chalk, type ChalkInstance } from 'chalk';
import type { CliIO, OutputStream } from './io.js';

/**
 * A chalk instance for one stream: no colour when NO_COLOR is set or the stream is not a
 * terminal, unless FORCE_COLOR asks for it.
 */
export function colorsFor(stream: OutputStream, env: CliIO['env']): ChalkInstance {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return new Chalk({ level: 0 });
  const forced = env.FORCE_COLOR;
  if (forced !== undefined)
    return new Chalk({
      level:
        forced === '0' || forced === 'false'
          ? 0
          : (Math.min(3, Math.max(1, Number(forced) || 1)) as 1 | 2 | 3),
    });
  return new Chalk({ level: stream.isTTY ? 2 : 0 });
}
