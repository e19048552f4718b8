/** One thing wrong in a config: where, and what. */
export interface ConfigIssue {
  /** The field in config-file terms, such as `limits.client.rate` or `users[2].email`; empty for the whole. */
  path: string;
  /** The same field as a JSON pointer, such as `/limits/client/rate`. */
  pointer: string;
  /** What is wrong, and what was expected. */
  message: string;
}

/** A config (file, flag or live change) that does not fit; `issues` name each bad field. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  readonly issues: ConfigIssue[];

  /** `what` names what does not fit, when it is not a config: `invalid e-mail`, say. */
  constructor(issues: ConfigIssue[], what = 'invalid config') {
    const lines = issues.map(formatIssue);
    super(lines.length === 1 ? `${what}: ${lines[0]}` : `${what}:\n  ${lines.join('\n  ')}`);
    this.issues = issues;
  }
}

/** `path: message`, or the message alone for the config as a whole. */
export function formatIssue(issue: ConfigIssue): string {
  return issue.path === '' ? issue.message : `${issue.path}: ${issue.message}`;
}

/** An issue at a path given as parts (`['users', 2, 'email']`). */
export function configIssue(parts: ReadonlyArray<string | number>, message: string): ConfigIssue {
  const path = parts
    .map((part) => (typeof part === 'number' ? `[${part}]` : `.${part}`))
    .join('')
    .replace(/^\./, '');
  const pointer = parts
    .map((part) => `/${String(part).replace(/~/g, '~0').replace(/\//g, '~1')}`)
    .join('');
  return { path, pointer, message };
}

/** Whether `value` is a {@link ConfigError}. */
export function isConfigError(value: unknown): value is ConfigError {
  return value instanceof ConfigError;
}
