import type { RequestRecord } from '../core/records/records.js';
import type { EvidenceRequest } from './check-report.js';

/**
 * The requests of `ids`, as a report keeps them (method, path, status, time, fields), in the
 * order of `ids`; an id no request has is left out.
 */
export function evidenceRequests(
  ids: readonly number[],
  requests: readonly RequestRecord[],
): EvidenceRequest[] {
  const shown: EvidenceRequest[] = [];
  for (const id of ids) {
    const record = requests.find((request) => request.id === id);
    if (record === undefined) continue;
    shown.push({
      id,
      time: new Date(record.at).toISOString(),
      method: record.method,
      path: record.path,
      status: record.status,
      fields: record.fields ?? null,
    });
  }
  return shown;
}
