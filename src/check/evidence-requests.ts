import type { RequestRecord } from '../core/records/records.js';
import type { EvidenceRequest } from './check-report.js';

/** The requests a finding names, as a report keeps them (method, path, status, time, fields). */
export function evidenceRequests(shown: readonly RequestRecord[]): EvidenceRequest[] {
  return shown.map((record) => ({
    id: record.id,
    time: new Date(record.at).toISOString(),
    method: record.method,
    path: record.path,
    status: record.status,
    fields: record.fields ?? null,
  }));
}
