import type { ServeOutput } from './serve-output.js';

/** `uas serve --open`: the dashboard in a browser, or a line saying why not. */
export async function openDashboard(url: string | null, out: ServeOutput): Promise<void> {
  if (url === null) {
    out.note('warning', 'the dashboard is off (--no-ui, or the dev API is off): nothing to open');
    return;
  }
  const { openBrowser } = await import('./open-browser.js');
  openBrowser(url, out.io.env, (message) => out.note('warning', message));
}
