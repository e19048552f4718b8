import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { stripVTControlCharacters } from 'node:util';

const PRISM = createRequire(import.meta.url).resolve('@stoplight/prism-cli/dist/index.js');

/** A Prism validation proxy (`prism proxy`) running in front of an upstream server. */
export interface PrismProxy {
  /** Where it listens, such as `http://127.0.0.1:40123`. */
  url: string;
  /** What it printed, for a failing test's message. */
  output(): string;
  close(): Promise<void>;
}

/** One violation Prism reports in the `sl-violations` header of an answer it proxied. */
export interface PrismViolation {
  location: string[];
  severity: string;
  code: string | number;
  message: string;
}

/**
 * Starts `prism proxy <document> <upstream>` on a free loopback port, and resolves once it listens
 * (within `timeoutMs`). Without `--errors`, Prism passes every answer through and reports what
 * breaks the document in the `sl-violations` header.
 */
export function startPrismProxy(
  document: string,
  upstream: string,
  timeoutMs = 30_000,
): Promise<PrismProxy> {
  const child = spawn(
    process.execPath,
    [PRISM, 'proxy', document, upstream, '--host', '127.0.0.1', '--port', '0'],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' } },
  );
  let text = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const close = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill();
    await exited;
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void close();
      reject(new Error(`prism did not listen within ${timeoutMs} ms:\n${text}`));
    }, timeoutMs);
    const read = (chunk: Buffer) => {
      text += chunk.toString();
      const found = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stripVTControlCharacters(text));
      if (found === null) return;
      clearTimeout(timer);
      resolve({ url: found[1] as string, output: () => text, close });
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`prism exited before it listened:\n${text}`));
    });
  });
}

/** The violations Prism reported on an answer (none when it sent no `sl-violations`). */
export function violationsOf(headers: Headers): PrismViolation[] {
  const raw = headers.get('sl-violations');
  return raw === null ? [] : (JSON.parse(raw) as PrismViolation[]);
}
