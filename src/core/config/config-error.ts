/** A config (file, flag or live change) that does not fit; `issues` name each bad field. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  readonly issues: string[];

  constructor(issues: string[]) {
    super(
      issues.length === 1
        ? `invalid config: ${issues[0]}`
        : `invalid config:\n  ${issues.join('\n  ')}`,
    );
    this.issues = issues;
  }
}

/** Whether `value` is a {@link ConfigError}. */
export function isConfigError(value: unknown): value is ConfigError {
  return value instanceof ConfigError;
}
