/**
 * Called before ink is loaded for a live screen the user asked for on a terminal. Ink renders
 * only the final frame when the environment says CI; that is right for logs, but a person at a
 * terminal with CI set in their shell would see nothing. The check happens when ink is imported,
 * so the variables are neutralised first (this process only: uas starts no child processes).
 */
export function allowLiveScreen(): void {
  for (const name of ['CI', 'CONTINUOUS_INTEGRATION']) {
    if (process.env[name] !== undefined) process.env[name] = 'false';
  }
}
