import { render } from 'ink';
import { App } from './app.js';
import { keyboardStream } from './keyboard-input.js';
import type { TuiSource } from './tui-source.js';

/** Where the screen is drawn and keys are read. */
export interface TuiStreams {
  stdout: NodeJS.WriteStream;
  stdin: NodeJS.ReadStream;
  stderr: NodeJS.WriteStream;
}

/** Draws the live screen until the user quits (`q`); resolves then. */
export async function runTui(source: TuiSource, title: string, streams: TuiStreams): Promise<void> {
  const app = render(<App source={source} title={title} />, {
    stdout: streams.stdout,
    stdin: keyboardStream(streams.stdin),
    stderr: streams.stderr,
    exitOnCtrlC: true,
    patchConsole: false,
  });
  await app.waitUntilExit();
}
