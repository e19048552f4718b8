import { escapeControls } from '../text/escape-controls.js';
import type { ConformOptions } from './conform-options.js';
import { describeConformRequest, type ConformRequest } from './conform-request.js';
import type { ConformHeading } from './conform-report.js';
import type { PlannedRequest } from './probe.js';
import { CONFORM_PROBES } from './probe-catalog.js';

/** A probe as --dry-run shows it: why it would be skipped, or the requests it would send. */
export interface PlannedProbe {
  id: string;
  title: string;
  skipped: string | null;
  requests: PlannedRequest[];
}

/** What the suite would do with these options: every probe, and the requests it would send. */
export function planConform(options: ConformOptions): PlannedProbe[] {
  return CONFORM_PROBES.map((probe) => {
    const unavailable = probe.unavailable(options);
    return {
      id: probe.id,
      title: probe.title,
      skipped: unavailable ?? null,
      requests: unavailable !== undefined ? [] : probe.plan(options),
    };
  });
}

/** The Authorization a planned request shows: never a token, only which one. */
function authorizationShown(request: ConformRequest, adminToken: boolean): string | null {
  if (request.auth === 'token') return '<access token>';
  if (request.auth === 'admin') return adminToken ? '<admin token>' : null;
  return request.auth === 'none' ? null : request.auth.authorization;
}

/** The plan as one JSON value. `adminToken`: whether one was given. */
export function conformPlanToJson(
  plan: PlannedProbe[],
  heading: ConformHeading,
  adminToken: boolean,
): unknown {
  return {
    dry_run: true,
    target: heading.target,
    max_requests: heading.maxRequests,
    checks: plan.map((probe) => ({
      ...probe,
      requests: probe.requests.map(({ request, repeat }) => ({
        method: request.method,
        path: request.path,
        authorization: authorizationShown(request, adminToken),
        body: request.body ?? null,
        repeat: repeat ?? null,
      })),
    })),
  };
}

/** The plan in words, escaped for a terminal. `adminToken`: whether one was given. */
export function formatConformPlan(
  plan: PlannedProbe[],
  heading: ConformHeading,
  adminToken: boolean,
): string {
  const lines = [
    `uas conform --dry-run: nothing is sent. ${heading.target}, at most ${heading.maxRequests} requests:`,
  ];
  for (const probe of plan) {
    lines.push('', `${probe.id}: ${probe.title}`);
    if (probe.skipped !== null) lines.push(`  skipped: ${probe.skipped}`);
    for (const { request, repeat } of probe.requests)
      lines.push(
        ...describeConformRequest(request, adminToken).map((line) => `  ${line}`),
        ...(repeat === undefined ? [] : [`    (${repeat})`]),
      );
    if (probe.skipped === null && probe.requests.length === 0)
      lines.push('  no request: judges the answers of the checks above');
  }
  return `${escapeControls(lines.join('\n'))}\n`;
}
