/**
 * Whether a test may use a tool (a browser, redis-server, tmux). Missing on a developer's
 * machine, its tests are skipped with a notice on stderr; in CI (`UAS_CI=1`, set by `.ci/run`,
 * which installs every tool) a missing tool fails the run instead of skipping silently, as does
 * a missing redis-server under `UAS_REQUIRE_REDIS=1`.
 */
export function requireTool(name: string, present: boolean, install: string): boolean {
  if (present) return true;
  if (
    process.env.UAS_CI === '1' ||
    (name === 'redis-server' && process.env.UAS_REQUIRE_REDIS === '1')
  )
    throw new Error(
      `${name} is required in CI but missing; .ci/run should install it (${install})`,
    );
  process.stderr.write(`notice: ${name} is not installed, so its tests are skipped (${install})\n`);
  return false;
}
