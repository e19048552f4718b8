import { describe, expect, it } from 'vitest';
import { createModeStats, type ModeStats, type TimeBin } from './mode-stats.js';
import { buildReport } from './build-report.js';
import type { FlowEnd } from './simulation-report.js';
import { resolveScenario, type Mode } from './scenario.js';

interface Run {
  completed?: number;
  failed?: number;
  /** Of the failed, those that failed on 429. */
  rateLimited?: number;
  unfinished?: number;
  bot?: { requests: number; allowed: number };
  /** Counts of the first bins of the timeline (the rest stay empty). */
  bins?: Array<Partial<TimeBin>>;
}

/** The verdict of a run with these counts, as the report gives it. */
function verdict(
  mode: Mode,
  run: Run,
  flowsEndAt: FlowEnd = 'verify',
  limitsApplied = true,
): string {
  const stats: ModeStats = createModeStats(mode, 24);
  const { completed = 0, failed = 0, rateLimited = 0, unfinished = 0 } = run;
  Object.assign(stats.shoppers, { completed, failed, rateLimited, unfinished });
  stats.shoppers.arrived = completed + failed + unfinished;
  stats.shoppers.failedAt.exists = failed;
  const bot = run.bot ?? { requests: 0, allowed: 0 };
  stats.bot = { ...bot, rejected: bot.requests - bot.allowed };
  (run.bins ?? []).forEach((bin, index) => Object.assign(stats.timeline[index]!, bin));
  // The default scenario: 600 s, a client bucket of 20 at 10/s, caller buckets of 5 at 1/s.
  const report = buildReport(resolveScenario({ modes: [mode] }), [stats], 0, 'virtual', {
    flowsEndAt,
    limitsApplied,
  });
  return report.modes[0]!.verdict;
}

/** Shoppers refused in the first bin while the bot got `botAllowed` through and they got 2. */
const refusedWhile = (botAllowed: number): Run['bins'] => [
  { requests: 12, refused: 10, botRequests: 40, botAllowed },
  { requests: 3, refused: 0, botRequests: 40, botAllowed: 40 },
];

describe('verdictOf', () => {
  describe('shoppers hurt because the bot drained the bucket they share', () => {
    const drained = /because the bot drained the one bucket they share with it/;

    it.each(['shared', 'static'] as const)(
      'blames the bot in %s mode when it got most requests through while shoppers were refused',
      (mode) => {
        const text = verdict(mode, {
          completed: 2,
          failed: 8,
          rateLimited: 8,
          bot: { requests: 80, allowed: 45 },
          bins: refusedWhile(5),
        });
        expect(text).toBe(
          'shoppers hurt: 8 of the 10 sign-ins failed (80.0%) because the bot drained the one bucket they share with it: while shoppers were refused, the bot got 5 requests through and the shoppers 2',
        );
      },
    );

    it('does not blame a bot that sent nothing: static shoppers exhaust their one bucket themselves', () => {
      const text = verdict('static', {
        completed: 9,
        failed: 44,
        rateLimited: 44,
        unfinished: 9,
        bins: [{ requests: 60, refused: 44 }],
      });
      expect(text).not.toContain('drained');
      expect(text).toBe(
        'shoppers hurt: 44 of the 62 sign-ins failed (71.0%; 9 still running) because every request sends the same caller_id, so the shoppers share one caller bucket and exhaust it themselves (the bot sent no requests)',
      );
    });

    it('does not blame a bot that got nothing through while shoppers were refused', () => {
      const text = verdict('shared', {
        completed: 2,
        failed: 8,
        rateLimited: 8,
        bot: { requests: 80, allowed: 40 },
        bins: refusedWhile(0),
      });
      expect(text).not.toMatch(drained);
      expect(text).toContain(
        'because nobody sends caller_id, so the shoppers share the one client bucket and exhaust it themselves (the bot got 0 requests through while they were refused)',
      );
    });

    it('shares the blame when the shoppers took more of the bucket than the bot', () => {
      const text = verdict('static', {
        completed: 2,
        failed: 8,
        rateLimited: 8,
        bot: { requests: 80, allowed: 41 },
        bins: refusedWhile(1),
      });
      expect(text).not.toMatch(drained);
      expect(text).toContain(
        "exhaust it, with the bot's help: while shoppers were refused, the bot got 1 request through and the shoppers 2",
      );
    });

    it.each(['per-caller', 'rotating'] as const)(
      'never blames the bot in %s mode, where it has buckets of its own',
      (mode) => {
        const text = verdict(mode, {
          completed: 2,
          failed: 8,
          rateLimited: 8,
          bot: { requests: 80, allowed: 45 },
          bins: refusedWhile(5),
        });
        expect(text).not.toMatch(/bot/);
        expect(text).toBe(
          'shoppers hurt: 8 of the 10 sign-ins failed (80.0%) on 429 from their own caller buckets',
        );
      },
    );

    it('names failures that were not 429s, and blames no bucket for them', () => {
      expect(
        verdict('shared', { completed: 2, failed: 8, bot: { requests: 80, allowed: 80 } }),
      ).toBe('shoppers hurt: 8 of the 10 sign-ins failed (80.0%), none of them on 429');
      expect(
        verdict('shared', {
          completed: 2,
          failed: 8,
          rateLimited: 6,
          bot: { requests: 80, allowed: 45 },
          bins: refusedWhile(5),
        }),
      ).toBe(
        'shoppers hurt: 8 of the 10 sign-ins failed (80.0%), 6 of them because the bot drained the one bucket they share with it: while shoppers were refused, the bot got 5 requests through and the shoppers 2; 2 on other errors',
      );
    });

    it('calls shoppers hurt only when more than 5% of the sign-ins that arrived failed', () => {
      for (const [completed, failed] of [
        [95, 5],
        [19, 1],
        [57, 3],
      ] as const)
        expect(verdict('shared', { completed, failed, rateLimited: failed })).not.toMatch(
          /^shoppers hurt/,
        );
      expect(verdict('shared', { completed: 94, failed: 6, rateLimited: 6 })).toMatch(
        /^shoppers hurt: 6 of the 100 sign-ins failed \(6\.0%\)/,
      );
    });
    it('does not call shoppers hurt when the sign-ins still running could make up for the failures', () => {
      // 9 of the 10 that ended completed (90%), but 90 still running could bring it to 99%.
      expect(
        verdict('per-caller', {
          completed: 9,
          failed: 1,
          rateLimited: 1,
          unfinished: 90,
          bot: { requests: 100, allowed: 10 },
        }),
      ).toBe(
        'too short to judge: 9 of the 100 sign-ins completed (9.0%; 90 still running), so whether 95% complete depends on how those end; the bot got 10 of its 100 requests through (10.0%)',
      );
    });
  });

  describe('protected', () => {
    it('is said when shoppers completed while most of the bot was refused', () => {
      expect(
        verdict('per-caller', {
          completed: 292,
          unfinished: 6,
          bot: { requests: 30_000, allowed: 604 },
        }),
      ).toBe(
        'protected: 292 of the 298 sign-ins completed (98.0%; 6 still running) while the bot got 604 of its 30000 requests through (2.0%)',
      );
    });

    it('is not said while the sign-ins still running could bring the share below 95%', () => {
      const early: Run = { completed: 1, unfinished: 10, bot: { requests: 300, allowed: 19 } };
      expect(verdict('per-caller', early)).toBe(
        'too short to judge: 1 of the 11 sign-ins completed (9.1%; 10 still running), so whether 95% complete depends on how those end; the bot got 19 of its 300 requests through (6.3%)',
      );
      // 95 of 100 is enough whatever the 5 still running do.
      expect(
        verdict('per-caller', { completed: 95, unfinished: 5, bot: { requests: 10, allowed: 1 } }),
      ).toMatch(/^protected: 95 of the 100 sign-ins completed \(95\.0%; 5 still running\)/);
    });

    it('is not said when there was no attack to be protected from', () => {
      const text = verdict('per-caller', { completed: 52, unfinished: 10 });
      expect(text).not.toMatch(/protected/);
      expect(text).toBe(
        'no attack: the bot sent no requests; 52 of the 62 sign-ins completed (83.9%; 10 still running)',
      );
    });

    it('is not said when most of the bot got through', () => {
      expect(verdict('shared', { completed: 10, bot: { requests: 10, allowed: 6 } })).toMatch(
        /^bot within its limit: /,
      );
      expect(verdict('shared', { completed: 10, bot: { requests: 10, allowed: 5 } })).toMatch(
        /^protected: /,
      );
    });
  });

  describe('where codes cannot be read (a live run against another server)', () => {
    it('says the sign-ins reached start, not that they completed', () => {
      const bot = { requests: 100, allowed: 1 };
      expect(verdict('per-caller', { completed: 10, bot }, 'start')).toBe(
        'protected: 10 of the 10 sign-ins reached start (100.0%) while the bot got 1 of its 100 requests through (1.0%)',
      );
      expect(verdict('per-caller', { completed: 5, unfinished: 5, bot }, 'start')).toMatch(
        /^too short to judge: 5 of the 10 sign-ins reached start \(50\.0%; 5 still running\), so whether 95% reach start depends/,
      );
    });
  });

  describe('bot unchecked', () => {
    it('explains the rotating bot only in rotating mode', () => {
      const run: Run = { completed: 10, bot: { requests: 12_000, allowed: 12_000 } };
      expect(verdict('rotating', run)).toBe(
        'bot unchecked: 12000 of its 12000 requests passed (100.0%); a new caller_id per request always finds a full bucket, so per-caller buckets alone cannot stop it (UNPROTECTED)',
      );
      expect(verdict('per-caller', run)).toBe(
        'bot unchecked: 12000 of its 12000 requests passed (100.0%)',
      );
    });

    it('is not said of a bot held to its bucket, however much of it got through', () => {
      // Twice the caller rate for 600 s: 5 + 600 of 1200 through is what the bucket allows.
      expect(verdict('per-caller', { completed: 10, bot: { requests: 1200, allowed: 604 } })).toBe(
        'bot within its limit: the bot got 604 of its 1200 requests through (50.3%), no more than its own caller bucket allows (5 tokens at 1/s over 600 s: 605); 10 of the 10 sign-ins completed (100.0%)',
      );
      // At the caller rate: all of it, still no more than the bucket allows.
      expect(
        verdict('per-caller', { completed: 10, bot: { requests: 600, allowed: 600 } }),
      ).toMatch(/^bot within its limit: the bot got 600 of its 600 requests through \(100\.0%\)/);
      expect(verdict('shared', { completed: 10, bot: { requests: 600, allowed: 600 } })).toMatch(
        /no more than the client bucket it shares with the shoppers allows \(20 tokens at 10\/s over 600 s: 6020\)/,
      );
    });

    it('is said past the allowance and its slack of 1 and 1%', () => {
      // 605 allowed, and a slack of 1 + 6.05 for a live run's timing.
      const within = verdict('per-caller', {
        completed: 10,
        bot: { requests: 1200, allowed: 612 },
      });
      expect(within).toMatch(/^bot within its limit: /);
      const over = verdict('per-caller', { completed: 10, bot: { requests: 1200, allowed: 613 } });
      expect(over).toBe('bot unchecked: 613 of its 1200 requests passed (51.1%)');
    });

    it('is said when more than half got through where the bucket is not known', () => {
      const run: Run = { completed: 10, bot: { requests: 1200, allowed: 604 } };
      expect(verdict('per-caller', run, 'start', false)).toBe(
        'bot unchecked: 604 of its 1200 requests passed (50.3%)',
      );
      expect(
        verdict(
          'per-caller',
          { completed: 10, bot: { requests: 1200, allowed: 600 } },
          'start',
          false,
        ),
      ).toMatch(/^protected: /);
    });

    it('is not said when the bot sent nothing', () => {
      expect(verdict('rotating', { completed: 10 })).not.toMatch(/unchecked|UNPROTECTED/);
    });
  });

  describe('counts', () => {
    it('says one sign-in and one request in the singular', () => {
      expect(verdict('per-caller', { completed: 1, bot: { requests: 1, allowed: 0 } })).toBe(
        'protected: 1 of the 1 sign-in completed (100.0%) while the bot got 0 of its 1 request through (0.0%)',
      );
      expect(verdict('shared', { failed: 1, rateLimited: 1, bins: refusedWhile(1) })).toBe(
        "shoppers hurt: 1 of the 1 sign-in failed (100.0%) because nobody sends caller_id, so the shoppers share the one client bucket and exhaust it, with the bot's help: while shoppers were refused, the bot got 1 request through and the shoppers 2",
      );
    });
  });

  describe('too short to judge', () => {
    it('is said when no sign-in ended, whatever the bot did', () => {
      expect(verdict('per-caller', { unfinished: 4, bot: { requests: 10, allowed: 1 } })).toBe(
        'too short to judge: no sign-in ended within the run (4 still running); the bot got 1 of its 10 requests through (10.0%)',
      );
      expect(verdict('shared', { unfinished: 4 })).toBe(
        'too short to judge: no sign-in ended within the run (4 still running); the bot sent no requests',
      );
    });

    it('is not said once a sign-in ended', () => {
      expect(verdict('per-caller', { completed: 1, unfinished: 4 })).not.toMatch(/too short/);
    });
  });
});
