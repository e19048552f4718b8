/** @jsxImportSource preact */
import { useEffect, useState } from 'preact/hooks';
import type { CheckReport } from '../../check/check-report.js';
import { formatReportJunit } from '../../check/format-report-junit.js';
import { formatReportMarkdown } from '../../check/format-report-markdown.js';
import { devApi, problemText } from '../dev-api.js';
import { oneLine } from '../format.js';
import { useRefresh } from '../parts/use-refresh.js';
import { href } from '../route.js';

const MARK = {
  passed: '✓ passed',
  failed: '✗ failed',
  'not-exercised': '– not exercised',
} as const;

/** `uas check` on what this emulator saw, read again as traffic comes (at most every 2 s). */
export function CheckPage() {
  const [report, setReport] = useState<CheckReport>();
  const [error, setError] = useState<string>();
  const tick = useRefresh(1000);
  useEffect(() => {
    void devApi<CheckReport>('GET', '/check').then((answer) => {
      if (answer.ok) {
        setReport(answer.body);
        setError(undefined);
      } else setError(problemText(answer));
    });
  }, [tick]);
  if (report === undefined) return <p>{error ?? 'Checking…'}</p>;
  const findings = new Map(report.findings.map((finding) => [finding.rule, finding]));
  return (
    <>
      <p>
        {report.summary.requests} requests judged. <Downloads report={report} />
      </p>
      {(report.warnings ?? []).map((warning) => (
        <p class="notice" key={warning}>
          {oneLine(warning, 2000)}
        </p>
      ))}
      <ul class="rules" data-testid="rules">
        {report.rules.map((rule) => {
          const finding = findings.get(rule.rule);
          return (
            <li
              key={rule.rule}
              data-rule={rule.rule}
              data-status={rule.status}
              class={`rule ${rule.status}`}
            >
              <strong>{MARK[rule.status]}</strong> <code>{rule.rule}</code>{' '}
              <span class="dim">({rule.severity})</span>
              {rule.reason === undefined ? null : <span class="dim"> — {rule.reason}</span>}
              {finding === undefined ? null : (
                <div class="finding">
                  {/* A finding quotes values of traffic (a misplaced caller_id): escaped. */}
                  <p data-testid="finding-message">{oneLine(finding.message, 2000)}</p>
                  <p>
                    <strong>Fix:</strong> {finding.fix}
                  </p>
                  <p>
                    Requests:{' '}
                    {finding.evidence.examples.map((id) => (
                      <a
                        key={id}
                        href={href('requests', { id: String(id) })}
                        data-testid="evidence-link"
                      >
                        #{id}{' '}
                      </a>
                    ))}
                  </p>
                </div>
              )}
            </li>
          );
        })}
      </ul>
    </>
  );
}

/** The report as JSON, JUnit or Markdown, to download. */
function Downloads({ report }: { report: CheckReport }) {
  return (
    <>
      <Download
        name="uas-check.json"
        type="application/json"
        text={() => JSON.stringify(report, null, 2)}
        label="Download JSON"
      />{' '}
      <Download
        name="uas-check.xml"
        type="application/xml"
        text={() => formatReportJunit(report)}
        label="Download JUnit"
      />{' '}
      <Download
        name="uas-check.md"
        type="text/markdown"
        text={() => formatReportMarkdown(report)}
        label="Download Markdown"
      />
    </>
  );
}

/** A link that saves a text as a file (made when clicked). */
function Download(props: { name: string; type: string; text: () => string; label: string }) {
  return (
    <button
      type="button"
      onClick={() => {
        const url = URL.createObjectURL(new Blob([props.text()], { type: props.type }));
        const link = document.createElement('a');
        link.href = url;
        link.download = props.name;
        link.click();
        setTimeout(() => URL.revokeObjectURL(url), 1000);
      }}
    >
      {props.label}
    </button>
  );
}
