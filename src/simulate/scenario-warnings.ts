/** What the warnings read of a scenario: how long it runs, and when its bot does. */
interface BotWindow {
  durationMs: number;
  bot: { startMs: number; stopMs: number };
}

const seconds = (ms: number) => `${Math.round(ms) / 1000} s`;

/**
 * What a scenario asks of its bot that its own duration takes away: a bot that starts at or
 * after the end of the run (the run has no bot), or one that is to stop after the end (it stops
 * at the end). `stopAsWrittenMs` is the scenario's `bot.stop`, undefined for "the end of the run".
 */
export function botWindowWarnings(
  bot: { startMs: number; stopAsWrittenMs: number | undefined },
  durationMs: number,
): string[] {
  if (bot.startMs >= durationMs)
    return [
      `the bot would start at ${seconds(bot.startMs)}, but the run ends at ${seconds(durationMs)}: this run has no bot and shows shoppers alone; make the run longer or start the bot earlier (--bot-start)`,
    ];
  if (bot.stopAsWrittenMs !== undefined && bot.stopAsWrittenMs > durationMs)
    return [
      `the bot is to stop at ${seconds(bot.stopAsWrittenMs)}, after the run ends (${seconds(durationMs)}): it runs from ${seconds(bot.startMs)} to ${seconds(durationMs)} only`,
    ];
  return [];
}

/** The share of a run, in whole percent, in which its bot sends requests. */
const botShare = (scenario: BotWindow) =>
  Math.round((100 * Math.max(0, scenario.bot.stopMs - scenario.bot.startMs)) / scenario.durationMs);

/**
 * A warning when another duration (`change`, such as `"--duration 90s"`) leaves the bot a
 * smaller share of the run than the scenario as written gives it: a preset whose bot starts
 * after a minute, run for 90 s, has its bot for a third of the run instead of nearly all of it.
 * Undefined when the share did not shrink, or when the bot is gone (see {@link botWindowWarnings}).
 */
export function shortenedBotWarning(
  asWritten: BotWindow,
  run: BotWindow,
  change: string,
): string | undefined {
  if (run.bot.startMs >= run.durationMs) return undefined;
  const before = botShare(asWritten);
  const after = botShare(run);
  if (after >= before) return undefined;
  return `${change} leaves the bot ${seconds(run.bot.stopMs - run.bot.startMs)} of the ${seconds(run.durationMs)} run (${seconds(run.bot.startMs)} to ${seconds(run.bot.stopMs)}, ${after}%) where the scenario as written gives it ${before}% (${seconds(asWritten.bot.startMs)} to ${seconds(asWritten.bot.stopMs)} of ${seconds(asWritten.durationMs)}): the bot's effect will show less than the scenario intends`;
}
