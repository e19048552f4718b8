import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEMO_MERCHANT, DEMO_TOKEN } from '../../src/index.js';
import { spawnUas, UAS_BIN, waitForUrl, type UasProcess } from '../helpers/spawn-uas.js';
import { optionsOf, ROOT, type DocBlock } from './doc-blocks.js';

// Where the shell examples of README and docs/ run: a workspace holding the files they name
// (my-uas.json, my-scenario.json, requests.ndjson, token.txt, a package.json whose tests are a
// correct integration), `uas` and a recording `curl` first on PATH, and an emulator on a free
// port standing in for http://127.0.0.1:4010.

const CORRECT = join(ROOT, 'fixtures/integrations/correct.mjs');
const REAL_CURL = spawnSync('sh', ['-c', 'command -v curl'], { encoding: 'utf8' }).stdout.trim();

/**
 * A merchant's integration test: a shopper signed in by a backend that follows the spec
 * (fixtures/integrations/correct.mjs with one shopper, so that its retries end sooner).
 */
function checkoutTest(): string {
  const lib = JSON.stringify(join(ROOT, 'fixtures/integrations/lib/merchant-backend.mjs'));
  return `import { addShoppers, callService, runShoppers, shopperAddress, signIn, withRetries } from ${lib};

const shoppers = await addShoppers(1);
await runShoppers(shoppers, (shopper, random) => {
  const caller_id = shopperAddress(shopper.incoming);
  return signIn(shopper, (operation, fields) =>
    withRetries(() => callService(operation, { ...fields, caller_id }), random),
  );
});
`;
}

/** The files an example may name, made once per workspace (the recording when first named). */
function stageFiles(dir: string): void {
  copyFileSync(join(ROOT, 'fixtures/uas.config.json'), join(dir, 'my-uas.json'));
  copyFileSync(join(ROOT, 'fixtures/scenarios/code-bombing.json'), join(dir, 'my-scenario.json'));
  writeFileSync(join(dir, 'token.txt'), 'sandbox-access-token-1\n');
  writeFileSync(join(dir, 'my-checkout-test.mjs'), checkoutTest());
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({
      name: 'shop',
      private: true,
      type: 'module',
      scripts: {
        test: 'node my-checkout-test.mjs',
        'test:integration': 'node my-checkout-test.mjs',
      },
    }),
  );
}

/** `uas` (this repository's bin/uas.js) and a `curl` that logs each final status it got. */
function stageTools(bin: string): void {
  mkdirSync(bin);
  writeFileSync(
    join(bin, 'uas'),
    `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(UAS_BIN)} "$@"\n`,
  );
  writeFileSync(
    join(bin, 'curl'),
    `#!/bin/bash
# The real curl, its headers dumped aside; the last status it got goes to $UAS_DOCS_STATUSES.
# A stream (-N) is cut after a second: what an example shows is that it opens.
limit=10
for arg in "$@"; do [[ "$arg" =~ ^-[a-zA-Z]*N[a-zA-Z]*$ ]] && limit=1; done
dump=$(mktemp)
${JSON.stringify(REAL_CURL)} --max-time "$limit" -D "$dump" "$@"
code=$?
status=$(grep -E '^HTTP/' "$dump" | tail -1 | cut -d' ' -f2)
rm -f "$dump"
echo "\${status:-none}" >> "$UAS_DOCS_STATUSES"
if [ "$code" -eq 28 ] && [ "$limit" -eq 1 ] && [ -n "$status" ]; then exit 0; fi
exit $code
`,
  );
  chmodSync(join(bin, 'uas'), 0o755);
  chmodSync(join(bin, 'curl'), 0o755);
}

/**
 * What runs before every example: `uas serve` started on a free port (an example's port is
 * replaced by 0) until it says where it listens, then stopped with SIGINT, which must exit 0.
 */
const PRELUDE = `set -e -o pipefail
__serve() {
  local args=() skip=0 out pid
  for arg in "$@"; do
    if [ "$skip" = 1 ]; then skip=0; continue; fi
    case "$arg" in -p|--port) skip=1; continue;; --port=*) continue;; esac
    args+=("$arg")
  done
  out=$(mktemp)
  command uas "\${args[@]}" --port 0 >"$out" 2>&1 &
  pid=$!
  for _ in $(seq 300); do
    grep -q 'listening on\\|"type":"listening"' "$out" && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.05
  done
  if ! grep -q 'listening on\\|"type":"listening"' "$out"; then
    kill -KILL "$pid" 2>/dev/null; cat "$out" >&2; rm -f "$out"
    echo "uas \${args[*]} did not listen" >&2; return 1
  fi
  kill -INT "$pid"
  wait "$pid" || { cat "$out" >&2; rm -f "$out"; echo "uas \${args[*]} did not exit 0" >&2; return 1; }
  rm -f "$out"
}
uas() {
  if [ "$1" = serve ] && [[ " $* " != *" --help "* ]]; then __serve "$@"; else command uas "$@"; fi
}
`;

/** A logical line of a script: a line ending in a backslash goes on with the next. */
function logicalLines(script: string): string[] {
  return script.split(/(?<!\\)\n/);
}

/** The code and the trailing comment of a line: from the first ` #` outside quotes. */
function splitComment(line: string): { code: string; comment: string } {
  let quote = '';
  for (let at = 0; at < line.length; at++) {
    const char = line[at]!;
    if (quote !== '') {
      if (char === quote) quote = '';
      else if (char === '\\' && quote === '"') at++;
    } else if (char === "'" || char === '"') quote = char;
    else if (char === '#' && (at === 0 || /\s/.test(line[at - 1]!)))
      return { code: line.slice(0, at), comment: line.slice(at + 1).trim() };
  }
  return { code: line, comment: '' };
}

/** `200 ×5, then 429 ×2` at the start of a comment: the statuses it lists, in order. */
export function statusesOf(comment: string): string[] {
  const list = /^(\d{3}(?: ×\d+)?(?:(?:,? then |, )\d{3}(?: ×\d+)?)*)(?![\w.])/.exec(comment);
  if (!list) return [];
  return list[1]!.split(/,? then |, /).flatMap((item) => {
    const [status, times = '1'] = item.split(' ×');
    return Array.from({ length: Number(times) }, () => status!);
  });
}

/**
 * The script as it runs: lines ending in `# exits N` must exit N (others exit 0, `set -e`), and
 * the statuses the trailing comments of the lines list, in order.
 */
export function prepareScript(script: string): { text: string; statuses: string[] } {
  const statuses: string[] = [];
  const lines = logicalLines(script).map((line) => {
    const { code, comment } = splitComment(line);
    if (code.trim() !== '') statuses.push(...statusesOf(comment));
    const exits = /^exits (\d+)/.exec(comment);
    if (!exits) return line;
    const command = code.trim();
    return `if ${command}; then echo ${JSON.stringify(`exit 0, not ${exits[1]}: ${command}`)} >&2; exit 99; else __code=$?; [ "$__code" -eq ${exits[1]} ] || { echo "exit $__code, not ${exits[1]}: "${JSON.stringify(command)} >&2; exit 99; }; fi`;
  });
  return { text: lines.join('\n'), statuses };
}

/** `serve --otp fixed:1 --chaos 0` among a marker's options: the flags of the emulator. */
export const serveFlagsOf = (block: DocBlock): string[] =>
  optionsOf(block)
    .find((option) => option.startsWith('serve '))
    ?.slice('serve '.length)
    .trim()
    .split(/\s+/) ?? [];

/** What an example printed, how it ended, and the statuses its curls got. */
export interface ShellRun {
  code: number | null;
  stdout: string;
  stderr: string;
  statuses: string[];
}

/** A workspace for the examples of one test file. */
export interface DocShell {
  readonly dir: string;
  /**
   * Starts an emulator (`uas serve --port 0 [serveFlags]`) and hands `use` its URL and the
   * environment an example runs in (`uas` first on PATH, UAS_URL at the emulator); stops it after.
   */
  withEmulator<T>(
    serveFlags: string[],
    use: (url: string, env: NodeJS.ProcessEnv) => Promise<T>,
  ): Promise<T>;
  /** Runs a script against a new emulator, the example's address replaced by its own. */
  run(
    script: string,
    options?: { serveFlags?: string[]; traffic?: boolean; redisUrl?: string },
  ): Promise<ShellRun & { url: string }>;
  dispose(): void;
}

/** A script with the addresses of the examples replaced by those of the test's servers. */
export function substitute(script: string, url: string, redisUrl?: string): string {
  const text = script
    .replaceAll('http://127.0.0.1:4010', url)
    .replaceAll('127.0.0.1:4010', url.replace('http://', ''))
    .replaceAll('localhost:4010', url.replace('http://127.0.0.1', 'localhost'));
  return redisUrl === undefined ? text : text.replaceAll('redis://127.0.0.1:6379/0', redisUrl);
}

export function createDocShell(dir: string): DocShell {
  const bin = join(dir, '.bin');
  stageTools(bin);
  stageFiles(dir);
  let runs = 0;
  let recording: Promise<void> | undefined;
  const shell: DocShell = {
    dir,
    async withEmulator(serveFlags, use) {
      const emulator = spawnUas(['serve', '--port', '0', '--log', 'off', ...serveFlags]);
      try {
        const url = await waitForUrl(emulator);
        const env = {
          ...process.env,
          NO_COLOR: '1',
          PATH: `${bin}:${process.env.PATH ?? ''}`,
          UAS_URL: url,
        };
        return await use(url, env);
      } finally {
        await stop(emulator);
      }
    },
    run(script, { serveFlags = [], traffic = false, redisUrl } = {}) {
      return shell.withEmulator(serveFlags, async (url, env) => {
        if (script.includes('requests.ndjson')) await (recording ??= record(dir));
        if (traffic) await sendTraffic(url);
        // Examples run at once: each its own log of statuses.
        const statusLog = join(dir, `.statuses-${++runs}`);
        writeFileSync(statusLog, '');
        env.UAS_DOCS_STATUSES = statusLog;
        const result = await runBash(`${PRELUDE}\n${substitute(script, url, redisUrl)}`, dir, env);
        const statuses = readFileSync(statusLog, 'utf8').split('\n').filter(Boolean);
        return { ...result, statuses, url };
      });
    },
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
  return shell;
}

/** requests.ndjson: what a correct integration sent, as `uas serve --record` writes it. */
async function record(dir: string): Promise<void> {
  const args = [UAS_BIN, 'check', '--chaos', '0', '--record', 'requests.ndjson', '--'];
  const env = { ...process.env, NO_COLOR: '1' };
  const run = await runCommand(
    process.execPath,
    [...args, process.execPath, 'my-checkout-test.mjs'],
    dir,
    env,
  );
  if (run.code !== 0) throw new Error(`cannot record requests.ndjson:\n${run.stderr}`);
}

/** A correct integration's sign-ins, sent to the emulator at `url`. */
async function sendTraffic(url: string): Promise<void> {
  const env = {
    ...process.env,
    UAS_URL: url,
    UAS_TOKEN: DEMO_TOKEN,
    UAS_MERCHANT_ID: DEMO_MERCHANT,
  };
  const sent = await runCommand(process.execPath, [CORRECT], ROOT, env);
  if (sent.code !== 0) throw new Error(`the correct integration failed:\n${sent.stderr}`);
}

const runBash = (script: string, cwd: string, env: NodeJS.ProcessEnv) =>
  runCommand('bash', ['-c', script], cwd, env);

function runCommand(
  command: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

async function stop(uas: UasProcess): Promise<void> {
  if (uas.child.exitCode === null) uas.child.kill('SIGTERM');
  await uas.exited;
}
