import { describe, expect, it } from 'vitest';
import { resolveScenario } from './scenario.js';
import { botWindowWarnings, shortenedBotWarning } from './scenario-warnings.js';

const CHECKOUT_RUSH = { duration: '15m', bot: { rate: '12/s', start: '1m' } };

describe('botWindowWarnings', () => {
  it('says the run has no bot when the bot starts at or after the end', () => {
    for (const startMs of [60_000, 120_000])
      expect(botWindowWarnings({ startMs, stopAsWrittenMs: undefined }, 60_000)).toEqual([
        `the bot would start at ${startMs / 1000} s, but the run ends at 60 s: this run has no bot and shows shoppers alone; make the run longer or start the bot earlier (--bot-start)`,
      ]);
  });

  it('says the bot stops at the end when it is to stop after it', () => {
    expect(botWindowWarnings({ startMs: 10_000, stopAsWrittenMs: 300_000 }, 60_000)).toEqual([
      'the bot is to stop at 300 s, after the run ends (60 s): it runs from 10 s to 60 s only',
    ]);
  });

  it('says nothing when the bot runs within the run', () => {
    expect(botWindowWarnings({ startMs: 59_999, stopAsWrittenMs: undefined }, 60_000)).toEqual([]);
    expect(botWindowWarnings({ startMs: 0, stopAsWrittenMs: 60_000 }, 60_000)).toEqual([]);
  });
});

describe('resolveScenario', () => {
  it('runs a scenario whose duration ends before its bot starts, with a warning instead of an error', () => {
    const scenario = resolveScenario({ ...CHECKOUT_RUSH, duration: '30s' });
    expect(scenario.warnings).toHaveLength(1);
    expect(scenario.warnings[0]).toMatch(/^the bot would start at 60 s, but the run ends at 30 s/);
    expect(scenario.bot.stopMs).toBeGreaterThanOrEqual(scenario.bot.startMs);
  });

  it('warns of nothing for the defaults', () => {
    expect(resolveScenario({}).warnings).toEqual([]);
  });
});

describe('shortenedBotWarning', () => {
  const asWritten = resolveScenario(CHECKOUT_RUSH);

  it('warns when a shorter run leaves the bot a smaller share of it', () => {
    const run = resolveScenario({ ...CHECKOUT_RUSH, duration: '90s' });
    expect(shortenedBotWarning(asWritten, run, '--duration 90s')).toBe(
      "--duration 90s leaves the bot 30 s of the 90 s run (60 s to 90 s, 33%) where the scenario as written gives it 93% (60 s to 900 s of 900 s): the bot's effect will show less than the scenario intends",
    );
  });

  it('says nothing when the bot keeps its share, or gets a larger one', () => {
    const fromStart = resolveScenario({ duration: '10m' });
    const short = resolveScenario({ duration: '20s' });
    expect(shortenedBotWarning(fromStart, short, '--duration 20s')).toBeUndefined();
    const longer = resolveScenario({ ...CHECKOUT_RUSH, duration: '1h' });
    expect(shortenedBotWarning(asWritten, longer, '--duration 1h')).toBeUndefined();
  });

  it('leaves a bot cut off entirely to botWindowWarnings', () => {
    const gone = resolveScenario({ ...CHECKOUT_RUSH, duration: '60s' });
    expect(shortenedBotWarning(asWritten, gone, '--duration 60s')).toBeUndefined();
  });
});
